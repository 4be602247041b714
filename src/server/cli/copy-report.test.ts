import { describe, expect, it } from 'vitest';
import { describeTarget, targetFromOption } from './copy-report.ts';
import { UsageError } from './run-command.ts';

const postgres = (url: string) => describeTarget({ kind: 'postgres', url, poolSize: 2 });

describe('describeTarget', () => {
  it('masks the password in the user part', () => {
    expect(postgres('postgres://cm:UserinfoSecret1@db:5432/cm')).toBe(
      'postgres://cm:***@db:5432/cm',
    );
  });

  it('masks the query parameters node-postgres reads a password or key from', () => {
    const shown = postgres(
      'postgres://cm@db/cm?password=QuerySecret99&sslpassword=KeyPass7&sslkey=/etc/pg/key.pem&sslmode=verify-full&application_name=cm',
    );
    expect(shown).toBe(
      'postgres://cm@db/cm?password=***&sslpassword=***&sslkey=***&sslmode=verify-full&application_name=cm',
    );
  });

  it('masks a parameter however its name is written, and drops a fragment', () => {
    const shown = postgres('postgresql://cm@db/cm?PassWord=Mixed1&%70assword=Encoded2#Frag3');
    expect(shown).toBe('postgresql://cm@db/cm?PassWord=***&password=***');
  });

  it('shows a URL without a host (a Unix socket) as it was written', () => {
    expect(postgres('postgres://cm:SocketSecret4@/cm?host=/var/run/postgresql')).toBe(
      'postgres://cm:***@/cm?host=%2Fvar%2Frun%2Fpostgresql',
    );
  });

  it('shows a SQLite file as its path', () => {
    expect(describeTarget({ kind: 'sqlite', file: '/data/cm.db' })).toBe('sqlite:/data/cm.db');
  });
});

describe('targetFromOption', () => {
  it('refuses a URL node-postgres cannot read, naming the option and not the URL', () => {
    let error: unknown;
    try {
      targetFromOption('--to', 'postgres://cm:S3cr#t/pw@db:5432/cm', '/data');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/^Invalid --to: must not contain #/);
    expect((error as UsageError).message).not.toContain('S3cr');
    expect((error as UsageError).showUsage).toBe(false);
  });
});
