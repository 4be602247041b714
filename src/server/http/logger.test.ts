import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl, terminalLogStream } from './logger.ts';

describe('redactUrl', () => {
  it.each([
    [
      '/api/auth/verify-email?token=abc&callbackURL=%2F',
      '/api/auth/verify-email?token=[redacted]&callbackURL=%2F',
    ],
    ['/cb?code=c1&state=s1', '/cb?code=[redacted]&state=[redacted]'],
    ['/x?TOKEN=a', '/x?TOKEN=[redacted]'],
    // Spelled so that only a decoder sees the name: the server reads it as `token`.
    ['/x?%74oken=a&%54oken=b', '/x?%74oken=[redacted]&%54oken=[redacted]'],
    ['/x?token[]=a&token', '/x?token[]=[redacted]&token=[redacted]'],
    ['/x?tokens=a&q=token', '/x?tokens=a&q=token'],
    // Secrets a client or a mistaken link may put in a query: logged in clear before.
    [
      '/x?password=Pw1&passwd=Pw2&pass=Pw3',
      '/x?password=[redacted]&passwd=[redacted]&pass=[redacted]',
    ],
    [
      '/x?access_token=At1&refresh_token=Rt1&id_token=It1',
      '/x?access_token=[redacted]&refresh_token=[redacted]&id_token=[redacted]',
    ],
    [
      '/x?api_key=K1&apiKey=K2&x-api-key=K3&key=K4',
      '/x?api_key=[redacted]&apiKey=[redacted]&x-api-key=[redacted]&key=[redacted]',
    ],
    [
      '/x?secret=S1&client_secret=S2&sig=S3&signature=S4',
      '/x?secret=[redacted]&client_secret=[redacted]&sig=[redacted]&signature=[redacted]',
    ],
    [
      '/x?PassWord=P&%70assword=Q&session=s&jwt=j',
      '/x?PassWord=[redacted]&%70assword=[redacted]&session=[redacted]&jwt=[redacted]',
    ],
    // The export's flag says whether passwords were asked for: worth keeping.
    [
      '/api/clients/export?secrets=true&view=summary',
      '/api/clients/export?secrets=true&view=summary',
    ],
    ['/x?%E0%A4%A=1', '/x?%E0%A4%A=1'],
    ['/plain/path', '/plain/path'],
    // The reset link carries its token in the path.
    [
      '/api/auth/reset-password/Xy12abc?callbackURL=%2Freset-password',
      '/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password',
    ],
    ['/api/auth/RESET-PASSWORD/Xy12abc', '/api/auth/RESET-PASSWORD/[redacted]'],
    ['/reset-password', '/reset-password'],
    // An invitation's link, and the sign-up page's look-up of it.
    ['/sign-up?invitation=Inv1tat10n', '/sign-up?invitation=[redacted]'],
    ['/api/invitations/Inv1tat10n', '/api/invitations/[redacted]'],
    ['/API/Invitations/Inv1tat10n?x=1', '/API/Invitations/[redacted]?x=1'],
  ])('%s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('terminalLogStream', () => {
  it('makes readable lines for a terminal', async () => {
    const out = Object.assign(new PassThrough(), { isTTY: true });
    const stream = await terminalLogStream(out);
    expect(stream).toBeDefined();
    const line = new Promise<string>((resolve) =>
      out.once('data', (c: Buffer) => resolve(String(c))),
    );
    pino(loggerOptions('info'), stream).info({ password: 'hunter2' }, 'Clients Manager is ready');
    const text = stripVTControlCharacters(await line);
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Clients Manager is ready\n/);
    expect(text).toContain('password: "[redacted]"');
  });

  it('leaves JSON for anything else', async () => {
    expect(await terminalLogStream(Object.assign(new PassThrough(), { isTTY: false }))).toBe(
      undefined,
    );
    expect(await terminalLogStream(new PassThrough())).toBe(undefined);
  });
});
