import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from './run-command.ts';

const options = { email: { type: 'string' }, help: { type: 'boolean' } } as const;
const oneOrTwo = ([command]: string[]) => (command === 'role' ? 2 : 1);

describe('parseCommandLine', () => {
  it('reads options and as many arguments as the command takes', () => {
    const parsed = parseCommandLine(options, oneOrTwo, ['role', '--email', 'a@b.test', 'admin']);
    expect(parsed.values).toEqual({ email: 'a@b.test' });
    expect(parsed.positionals).toEqual(['role', 'admin']);
  });

  it.each([
    [['--secret', 'x'], /^Unknown option '--secret'/],
    [['--email'], "Option '--email <value>' argument missing"],
    [['--help=yes'], "Option '--help' does not take an argument"],
    [['create', 'hunter2-typed-here'], /^Unexpected second argument: this command takes 1 /],
    [['role', 'admin', 'hunter2-typed-here'], /^Unexpected third argument: /],
  ])('refuses %j as a usage error without echoing a value', (args, message) => {
    let error: unknown;
    try {
      parseCommandLine(options, oneOrTwo, args);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect((error as UsageError).message).not.toContain('hunter2');
  });

  it('takes no arguments unless told', () => {
    expect(() => parseCommandLine(options, undefined, ['extra'])).toThrow(
      'This command takes no arguments besides its options (one was given).',
    );
  });
});
