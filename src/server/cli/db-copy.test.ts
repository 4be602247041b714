import { describe, expect, it } from 'vitest';
import { runScript } from '#server/testing/run-script.ts';

const dbCopy = (args: string[]) => runScript('src/server/cli/db-copy.ts', args);

describe('npm run db:copy', () => {
  it('never prints the password of a database URL, nor the URL it cannot read', async () => {
    // No such source: the command stops after printing what it would copy.
    const from = 'sqlite:/nonexistent-folder/clients-manager.db';
    const query = await dbCopy([
      '--from',
      from,
      '--to',
      'postgres://cm@127.0.0.1:1/cm?password=QuerySecret99&sslpassword=KeyPass77',
    ]);
    expect(query.code).toBe(1);
    expect(query.out.split('\n')[0]).toBe(
      `Copying ${from} → postgres://cm@127.0.0.1:1/cm?password=***&sslpassword=***`,
    );
    expect(query.out + query.err).not.toMatch(/QuerySecret99|KeyPass77/);

    const unreadable = await dbCopy(['--from', from, '--to', 'postgres://cm:S3cr#t/pw@db:5432/cm']);
    expect(unreadable).toMatchObject({ code: 2, out: '' });
    expect(unreadable.err).toMatch(/^Invalid --to: must not contain #, which ends a URL: .*\n$/);
    expect(unreadable.err).not.toContain('S3cr');
  });
});
