import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters } from '#shared/command-safe-text.ts';
import { validateTemplate } from '#shared/deploy-template.ts';
import { buildCommands } from './deploy-command.ts';
import { DEFAULT_DEPLOY_COMMAND_TEMPLATE } from '#server/config.ts';
import { SHELL_RUNS_TIMEOUT_MS, SHELL_SPECIALS, wordsOf } from '#server/testing/shell-words.ts';

/** What a program takes for an option, however it is quoted. */
const startsLikeOption = (value: string) => value.startsWith('-');

const server = {
  label: 'production',
  host: 'web1.example.com',
  port: 22,
  username: 'deploy',
  uiDir: '/srv/ui',
};

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
    const [deploy] = buildCommands('deploy {code} {uiDir} {serverLabel}', {
      accessToken: null,
      tags: [],
      server: { ...server, uiDir: '/a b/$(x)', label: "prod 'eu'" },
      code: 'A;B',
    });
    expect(deploy!.command).toBe("deploy 'A;B' '/a b/$(x)' 'prod '\\''eu'\\'");
  });

  it('validates templates', () => {
    expect(validateTemplate(DEFAULT_DEPLOY_COMMAND_TEMPLATE)).toBeNull();
    expect(validateTemplate('run {nope}')).toMatch(/unknown placeholder \{nope\}/);
    expect(validateTemplate('')).toMatch(/empty/);
  });

  it('refuses a template that reads differently from what it runs, and offers no command of one', () => {
    // U+202E shows `rm -md` and the rest reversed; ESC and U+0003 act in the terminal.
    for (const template of [
      'echo ok \u202e#; dm- mr {serverTag}',
      'run\u001b[2J {code}',
      'a\u0003b',
      'x\u200b',
    ]) {
      expect(validateTemplate(template), JSON.stringify(template)).toMatch(
        /^must not contain a hidden control character \(U\+[0-9A-F]{4}\)/,
      );
      // One stored before the rule.
      const [deploy] = buildCommands(template, {
        accessToken: 'tok',
        tags: ['eu'],
        server,
        code: 'ACM',
      });
      expect(deploy!.command).toBeNull();
      expect(deploy!.display).toBeNull();
      expect(deploy!.missing).toMatch(
        /^No deploy command: the command contains a hidden control character/,
      );
    }
  });
});

/** Hostile text: quotes, $(), backticks, newlines, ;, &&, globs, and any other characters. */
const hostile = fc
  .oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.array(fc.constantFrom(...SHELL_SPECIALS), { maxLength: 12 }).map((parts) => parts.join('')),
    // Control characters and a leading '-' cannot be stored and are never quoted
    // (command-bash.test.ts).
  )
  .filter((value) => !hasHiddenCharacters(value) && !startsLikeOption(value));

describe('deploy command with hostile tags and tokens', () => {
  it(
    'is always the one command with the token and the first tag as single arguments',
    () => {
      fc.assert(
        fc.property(
          hostile.filter((t) => t !== ''),
          hostile.filter((t) => t !== ''),
          (token, tag) => {
            const [deploy] = buildCommands(DEFAULT_DEPLOY_COMMAND_TEMPLATE, {
              accessToken: token,
              tags: [tag, 'second'],
              server,
              code: 'ACM',
            });
            expect(wordsOf(deploy!.command!)).toEqual([
              'pro-deploy',
              'run',
              '--token',
              token,
              '--server',
              tag,
            ]);
          },
        ),
        { numRuns: 150 },
      );
    },
    SHELL_RUNS_TIMEOUT_MS,
  );
});
