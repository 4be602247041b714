import { describe, expect, it } from 'vitest';
import { buildCommands, validateTemplate } from './deploy-command.ts';
import { DEFAULT_DEPLOY_COMMAND_TEMPLATE } from '../../config.ts';

const server = { host: 'web1.example.com', port: 22, username: 'deploy', uiDir: '/srv/ui' };

describe('deploy command', () => {
  it('fills the default template with the token and first tag', () => {
    const [deploy, ssh] = buildCommands(DEFAULT_DEPLOY_COMMAND_TEMPLATE, {
      accessToken: 'abc123',
      tags: ['eu-1', 'other'],
      server,
      code: 'ACM',
    });
    expect(deploy).toMatchObject({
      command: 'pro-deploy run --token abc123 --server eu-1',
      display: 'pro-deploy run --token •••••••• --server eu-1',
      missing: null,
    });
    expect(ssh).toMatchObject({ command: 'ssh -p 22 deploy@web1.example.com', missing: null });
  });

  it('says what is missing instead of producing a broken line', () => {
    const [deploy, ssh] = buildCommands(DEFAULT_DEPLOY_COMMAND_TEMPLATE, {
      accessToken: null,
      tags: [],
      server: { ...server, host: '' },
      code: '',
    });
    expect(deploy!.command).toBeNull();
    expect(deploy!.missing).toBe(
      'No deploy command yet: set your access token in Settings and add a tag to this client (its first tag selects the server).',
    );
    expect(ssh!.command).toBeNull();
    expect(ssh!.missing).toMatch(/add a server host/);
  });

  it('quotes every substituted value', () => {
    const [deploy] = buildCommands('deploy {code} {uiDir}', {
      accessToken: null,
      tags: [],
      server: { ...server, uiDir: '/a b/$(x)' },
      code: 'A;B',
    });
    expect(deploy!.command).toBe("deploy 'A;B' '/a b/$(x)'");
  });

  it('validates templates', () => {
    expect(validateTemplate(DEFAULT_DEPLOY_COMMAND_TEMPLATE)).toBeNull();
    expect(validateTemplate('run {nope}')).toMatch(/unknown placeholder \{nope\}/);
    expect(validateTemplate('')).toMatch(/empty/);
  });
});
