import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters } from '#shared/command-safe-text.ts';
import { TEMPLATE_PLACEHOLDERS, type Placeholder } from '#shared/deploy-template.ts';
import { buildCommands, type CommandContext } from './deploy-command.ts';
import { SHELL_RUNS_TIMEOUT_MS } from '#server/testing/shell-words.ts';
import { shellQuote } from './shell-quote.ts';

/** What a program takes for an option, however it is quoted. */
const startsLikeOption = (value: string) => value.startsWith('-');

/**
 * Every placeholder fed random text from the whole Unicode range, hostile shell text and control
 * bytes, checked with a real bash: an accepted value comes out as exactly one argument, byte for
 * byte, and no command line holds a character a terminal would act on when it is pasted.
 */

const EVERY_PLACEHOLDER = `deploy ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`;

/** The arguments bash hands to `deploy` when it runs `command` (a function that prints them). */
function argumentsOf(command: string): Buffer[] {
  execFileSync('bash', ['-n', '-c', command]);
  const out = execFileSync('bash', [
    '-c',
    `deploy() { printf '%s\\0' "$@"; }; ssh() { deploy "$@"; }; ${command}`,
  ]);
  const args: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < out.length; i++) {
    if (out[i] === 0) {
      args.push(out.subarray(start, i));
      start = i + 1;
    }
  }
  return args;
}

const controls = fc
  .integer({ min: 0, max: 0x9f })
  .filter((c) => c < 0x20 || c >= 0x7f)
  .map((c) => String.fromCodePoint(c));
const invisibles = fc.constantFrom(
  '\u061c',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u202e',
  '\u2028',
  '\u2066',
  '\u2069',
  '\ufeff',
);
const shellish = fc.constantFrom(
  "'",
  '"',
  '\\',
  '`',
  '$(touch /tmp/pwned)',
  '${IFS}',
  ';',
  '&&',
  '|',
  '\n',
  '*',
  '~',
  ' ',
  '#',
  '-x',
  '--server=evil',
  "'\\''",
);
/** Well-formed text: a lone surrogate cannot be stored (the schemas refuse it). */
const anyValue = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }) },
      { weight: 3, arbitrary: shellish },
      { weight: 1, arbitrary: controls },
      { weight: 1, arbitrary: invisibles },
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(''));
const cleanValue = anyValue.filter((v) => !hasHiddenCharacters(v));
/** Mostly clean values, so that about half the commands are built and run. */
const value = fc.oneof({ weight: 9, arbitrary: cleanValue }, { weight: 1, arbitrary: anyValue });

const values = fc.record(
  Object.fromEntries(TEMPLATE_PLACEHOLDERS.map((p) => [p, value])) as Record<
    Placeholder,
    typeof value
  >,
);

function contextOf(v: Record<Placeholder, string>): CommandContext {
  return {
    accessToken: v.accessToken,
    tags: [v.serverTag],
    server: { label: v.serverLabel, host: v.host, port: 22, username: v.username, uiDir: v.uiDir },
    code: v.code,
  };
}

describe('copied commands through a real bash', () => {
  it(
    'carry each clean value as one argument, byte for byte, and refuse the rest',
    () => {
      let ran = 0;
      let refused = 0;
      fc.assert(
        fc.property(values, (v) => {
          const [deploy] = buildCommands(EVERY_PLACEHOLDER, contextOf(v));
          // The port is a number: it comes from the server, not from text.
          const dirty = TEMPLATE_PLACEHOLDERS.filter(
            (p) => p !== 'port' && (hasHiddenCharacters(v[p]) || startsLikeOption(v[p])),
          );
          if (dirty.length > 0) {
            refused++;
            expect(deploy!.command).toBeNull();
            expect(deploy!.display).toBeNull();
            expect(deploy!.missing).toMatch(
              /hidden control character \(U\+[0-9A-F]{4,}\)|starts with '-', which the command would take for an option/,
            );
            expect(hasHiddenCharacters(deploy!.missing!)).toBe(false);
            return;
          }
          ran++;
          const command = deploy!.command!;
          expect(hasHiddenCharacters(command)).toBe(false);
          expect(hasHiddenCharacters(deploy!.display!)).toBe(false);
          const expected = [
            v.accessToken,
            v.serverTag,
            v.host,
            '22',
            v.username,
            v.uiDir,
            v.serverLabel,
            v.code,
          ].map((s) => Buffer.from(s, 'utf8'));
          expect(argumentsOf(command)).toEqual(expected);
        }),
        { numRuns: 150 },
      );
      expect(ran).toBeGreaterThan(10);
      expect(refused).toBeGreaterThan(10);
    },
    SHELL_RUNS_TIMEOUT_MS,
  );

  it(
    'never lets shellQuote emit a control, bidi or zero-width character',
    () => {
      fc.assert(
        fc.property(anyValue, (v) => {
          if (startsLikeOption(v)) {
            expect(() => shellQuote(v)).toThrow(/starting with '-'/);
            return;
          }
          if (hasHiddenCharacters(v)) {
            expect(() => shellQuote(v)).toThrow(/U\+[0-9A-F]{4}/);
            return;
          }
          const quoted = shellQuote(v);
          expect(hasHiddenCharacters(quoted)).toBe(false);
          expect(argumentsOf(`deploy ${quoted}`)).toEqual([Buffer.from(v, 'utf8')]);
        }),
        { numRuns: 100 },
      );
    },
    SHELL_RUNS_TIMEOUT_MS,
  );

  it('offers no SSH command for a stored host or username with a hidden character', () => {
    const [, ssh] = buildCommands(EVERY_PLACEHOLDER, {
      accessToken: 't',
      tags: ['eu'],
      server: { label: 'main', host: 'example.com', port: 22, username: 'de\u0015ploy', uiDir: '' },
      code: 'C',
    });
    expect(ssh!.command).toBeNull();
    expect(ssh!.missing).toBe(
      'No SSH command: the server username contains a hidden control character (U+0015). Edit it to remove the character.',
    );
  });

  it('keeps the review’s paste-jacking tag out of every command', () => {
    const tag = 'x\u0003    touch /tmp/pwned\nz';
    const [deploy] = buildCommands('pro-deploy run --token {accessToken} --server {serverTag}', {
      accessToken: 'abc',
      tags: [tag],
      server: { label: 'main', host: 'h', port: 22, username: 'u', uiDir: '' },
      code: 'C',
    });
    expect(deploy!.command).toBeNull();
    expect(deploy!.missing).toContain('the first tag contains a hidden control character (U+0003)');
  });
});

describe('values a program would take for an option', () => {
  const context = (change: Partial<CommandContext['server']> & { tags?: string[] }) => ({
    accessToken: 'MYSECRETTOKEN',
    tags: change.tags ?? ['eu'],
    server: { label: 'main', host: 'h', port: 22, username: 'u', uiDir: '/srv/ui', ...change },
    code: 'C',
  });

  it('offers no command with the review’s second --token as the first tag', () => {
    const [deploy] = buildCommands(
      'pro-deploy run --token {accessToken} --server {serverTag}',
      context({ tags: ['--token=attacker-token', 'eu'] }),
    );
    expect(deploy).toMatchObject({ command: null, display: null });
    expect(deploy!.missing).toBe(
      "No deploy command: the first tag starts with '-', which the command would take for an option. Edit it to remove the '-'.",
    );
  });

  it('never lets a uiDir run a program through tar in a real bash', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cm-option-'));
    try {
      const pwned = path.join(dir, 'pwned');
      const [deploy] = buildCommands(
        `tar -cf ${dir}/ui.tar {uiDir} /etc/hostname`,
        context({ uiDir: `--use-compress-program=touch ${pwned} #` }),
      );
      // Whatever is offered is run as the staff member would paste it.
      if (deploy!.command !== null) {
        try {
          execFileSync('bash', ['-c', deploy!.command], { cwd: dir, stdio: 'ignore' });
        } catch {
          // tar's own failure is not the point: what it ran is.
        }
      }
      expect(existsSync(pwned)).toBe(false);
      expect(deploy!.command).toBeNull();
      expect(deploy!.missing).toContain("the UI directory starts with '-'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('offers no `cd {uiDir}` that a real bash would take to the previous folder', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cm-oldpwd-'));
    try {
      const [deploy] = buildCommands('cd {uiDir} && pwd', context({ uiDir: '-' }));
      if (deploy!.command !== null) {
        const out = execFileSync('bash', ['-c', `cd ${dir} && cd / && ${deploy!.command}`]);
        expect(out.toString()).not.toContain(dir);
      }
      expect(deploy!.command).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('offers no SSH command for a stored host starting with -', () => {
    const [, ssh] = buildCommands(
      'deploy',
      context({ host: '-oProxyCommand=touch /tmp/x', username: '' }),
    );
    expect(ssh).toMatchObject({ command: null, display: null });
    expect(ssh!.missing).toContain("the server host starts with '-'");
  });
});

describe('deploy templates', () => {
  it.each([
    'pro-deploy --server "{serverTag}"',
    "pro-deploy --server '{serverTag}'",
    'pro-deploy --server="x {serverTag} y"',
    'pro-deploy --server \\{serverTag}',
    'pro-deploy --server $`{serverTag}`',
    'pro-deploy --server ${serverTag}',
    'pro-deploy --server {serverTag}"x"',
  ])('refuses a placeholder in or next to quotes: %s', async (template) => {
    const { validateTemplate } = await import('#shared/deploy-template.ts');
    expect(validateTemplate(template)).toMatch(
      /placeholder \{serverTag\} must stand outside quotes|unclosed quote/,
    );
  });

  it.each([
    // The review's: `\"` inside double quotes is an escaped quote, so the placeholder is inside.
    'echo "\\" {serverTag} "\\"',
    // ANSI-C quotes: `\'` does not close them.
    "echo $'\\' {serverTag} '",
    // A command substitution inside double quotes opens quotes of its own.
    'echo "$(echo " {serverTag} ")"',
    // Arithmetic expands $(…) even inside single quotes.
    '(( {serverTag} ))',
    'echo $(( {serverTag} ))',
    'echo `echo {serverTag}`',
    // Arithmetic of other spellings: an array subscript in a value, `a[$(…)]`, runs there.
    'echo $[ {serverTag} ]',
    '[[ {serverTag} -eq 0 ]]',
    'true && [[ 1 -eq {serverTag} ]] && deploy',
  ])('refuses a placeholder bash reads inside quotes or a substitution: %s', async (template) => {
    const { validateTemplate } = await import('#shared/deploy-template.ts');
    expect(validateTemplate(template)).toMatch(
      /placeholder \{serverTag\} must stand outside quotes|unclosed quote/,
    );
  });

  it.each([
    ['echo "say \\"hi\\"" && deploy {serverTag}', 'say "hi"'],
    ['echo \\" && deploy {serverTag}', '"'],
    ["echo 'a\\' && deploy {serverTag}", 'a\\'],
    ["echo $'it\\'s' && deploy {serverTag}", "it's"],
    ['echo "$(echo "in")" && deploy {serverTag}', 'in'],
  ])('takes escaped quotes as bash does: %s', async (template, echoed) => {
    const { validateTemplate } = await import('#shared/deploy-template.ts');
    expect(validateTemplate(template)).toBeNull();
    const tag = '$(echo PWNED)';
    const [deploy] = buildCommands(template, {
      accessToken: 't',
      tags: [tag],
      server: { label: 'main', host: 'h', port: 22, username: 'u', uiDir: '' },
      code: 'C',
    });
    const out = execFileSync('bash', [
      '-c',
      `deploy() { printf '%s\\0' "$@"; }; ${deploy!.command!}`,
    ]).toString();
    expect(out).toBe(`${echoed}\n${tag}\0`);
  });

  it(
    'never lets a tag run in a template it accepts, through a real bash',
    async () => {
      const { validateTemplate } = await import('#shared/deploy-template.ts');
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cm-template-'));
      const marker = path.join(dir, 'pwned');
      const tag = `a[$(touch ${marker})]\`touch ${marker}\``;
      const piece = fc
        .array(
          fc.constantFrom(
            ...['"', "'", '\\', '\\"', "$'", '$(', '((', ')', '`', '{', '}', ' ', 'x'],
            ...['$[', '[[ ', ' ]]', ']', ' -eq 0'],
          ),
          { maxLength: 5 },
        )
        .map((parts) => parts.join(''));
      let accepted = 0;
      try {
        fc.assert(
          fc.property(piece, piece, (before, after) => {
            const template = `echo ${before} {serverTag} ${after}`;
            if (validateTemplate(template) !== null) return;
            accepted++;
            const [deploy] = buildCommands(template, {
              accessToken: 't',
              tags: [tag],
              server: { label: 'main', host: 'h', port: 22, username: 'u', uiDir: '' },
              code: 'C',
            });
            try {
              execFileSync('bash', ['-c', deploy!.command!], { cwd: dir, stdio: 'ignore' });
            } catch {
              // A template that is no valid command fails; what matters is what ran.
            }
            expect(existsSync(marker), template).toBe(false);
          }),
          { numRuns: 400 },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(accepted).toBeGreaterThan(20);
    },
    SHELL_RUNS_TIMEOUT_MS,
  );

  it('still takes placeholders as words of their own', async () => {
    const { validateTemplate } = await import('#shared/deploy-template.ts');
    expect(
      validateTemplate('pro-deploy run --token {accessToken} --server={serverTag} "ok"'),
    ).toBeNull();
  });
});
