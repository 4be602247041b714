import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      apiTokenRateLimitPerMinute: 600,
    });
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: path.resolve('data/clients-manager.db'),
    });
    expect(config.deployCommandTemplate).toBe(
      'pro-deploy run --token {accessToken} --server {serverTag}',
    );
  });

  it('chooses the dialect from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db/cm' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db/cm',
      poolSize: 10,
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://db/cm', DATABASE_POOL_SIZE: '25' }).database,
    ).toEqual({ kind: 'postgres', url: 'postgresql://db/cm', poolSize: 25 });
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/cm.db' }).database).toEqual({
      kind: 'sqlite',
      file: '/var/lib/cm.db',
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid setting PORT: /],
    [
      { DATABASE_URL: 'mysql://x' },
      /^Invalid setting DATABASE_URL: must start with sqlite:, file: or postgres:\/\/$/,
    ],
    [{ PUBLIC_URL: 'ftp://x' }, /^Invalid setting PUBLIC_URL: /],
    [
      { DATABASE_POOL_SIZE: '0' },
      /^Invalid setting DATABASE_POOL_SIZE: must be a whole number between 1 and 1000$/,
    ],
    [{ SECRET_KEY: 'short' }, /^Invalid setting SECRET_KEY: must be at least 32 characters/],
    [
      { DEPLOY_COMMAND_TEMPLATE: 'x {bad}' },
      /^Invalid setting DEPLOY_COMMAND_TEMPLATE: unknown placeholder/,
    ],
    [{ LOG_LEVEL: 'loud' }, /^Invalid setting LOG_LEVEL: /],
    [{ AUTH_RATE_LIMIT_PER_MINUTE: '0' }, /^Invalid setting AUTH_RATE_LIMIT_PER_MINUTE: /],
    [{ API_TOKEN_RATE_LIMIT: '0' }, /^Invalid setting API_TOKEN_RATE_LIMIT: /],
    [{ API_TOKEN_RATE_LIMIT: 'lots' }, /^Invalid setting API_TOKEN_RATE_LIMIT: /],
    // `true` would trust the header from anyone, so anyone could pick their rate-limit count.
    [{ TRUST_PROXY: 'true' }, /^Invalid setting TRUST_PROXY: must be the addresses/],
    [{ TRUST_PROXY: '10.0.0.1, 10.0.0.0/33, x' }, /^Invalid setting TRUST_PROXY: /],
    [
      { SERVER_CHECK_INTERVAL: '1.5' },
      /^Invalid setting SERVER_CHECK_INTERVAL: must be a whole number of minutes from 0 \(off\) to 10080$/,
    ],
    [{ SERVER_CHECK_INTERVAL: '-1' }, /^Invalid setting SERVER_CHECK_INTERVAL: /],
    [{ SERVER_CHECK_INTERVAL: '10081' }, /^Invalid setting SERVER_CHECK_INTERVAL: /],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message.split('\n')).toHaveLength(1);
    }
  });

  it.each([
    // `#` ends the URL's authority: node-postgres's own parse threw a TypeError at the first
    // connection, a stack trace instead of this line.
    ['postgres://cm:S3cr#t/pw@db:5432/cm', /must not contain #, which ends a URL: percent-encode/],
    ['postgres://cm:S3cr/t@db:5432/cm', /cannot be read as a URL: percent-encode/],
    // Read as a URL it fails too, but the password has nothing to do with it.
    ['postgres://cm:S3cret@db:99999/cm', /: its port is not a number from 1 to 65535$/],
  ])('refuses DATABASE_URL %s with one line that names it and not the password', (url, why) => {
    let message = '';
    try {
      loadConfig({ DATABASE_URL: url });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid setting DATABASE_URL: /);
    expect(message).toMatch(why);
    expect(message.split('\n')).toHaveLength(1);
    expect(message).not.toContain('S3cr');
  });

  it('reads SERVER_CHECK_INTERVAL in minutes: 15 unless set, 0 for none', () => {
    expect(loadConfig({}).serverCheckIntervalMinutes).toBe(15);
    expect(loadConfig({ SERVER_CHECK_INTERVAL: ' 0 ' }).serverCheckIntervalMinutes).toBe(0);
    expect(loadConfig({ SERVER_CHECK_INTERVAL: '60' }).serverCheckIntervalMinutes).toBe(60);
  });

  it('reads TRUST_PROXY as a list of addresses and ranges', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(
      loadConfig({ TRUST_PROXY: ' 10.0.0.1, 172.16.0.0/12 ,::1,fd00::/8' }).trustedProxies,
    ).toEqual(['10.0.0.1', '172.16.0.0/12', '::1', 'fd00::/8']);
  });

  it('refuses to listen beyond this machine with open sign-up, unless told so on purpose', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(
      /^Refusing to start: HOST=0.0.0.0 reaches beyond this machine and neither ALLOWED_EMAIL_DOMAINS nor ALLOWED_EMAILS is set.*ALLOW_OPEN_SIGNUP=true/,
    );
    expect(() => loadConfig({ HOST: '::' })).toThrow(/ALLOW_OPEN_SIGNUP/);
    expect(loadConfig({ HOST: '0.0.0.0', ALLOWED_EMAIL_DOMAINS: 'example.com' }).host).toBe(
      '0.0.0.0',
    );
    expect(loadConfig({ HOST: '0.0.0.0', ALLOWED_EMAILS: 'ada@example.com' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_OPEN_SIGNUP: 'true' }).host).toBe('0.0.0.0');
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) {
      expect(loadConfig({ HOST: host }).host).toBe(host);
    }
    expect(() => loadConfig({ ALLOW_OPEN_SIGNUP: 'yes' })).toThrow(
      /^Invalid setting ALLOW_OPEN_SIGNUP: must be true or false$/,
    );
  });

  it('never echoes a secret value', () => {
    expect(() => loadConfig({ SECRET_KEY: 'hunter2' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
