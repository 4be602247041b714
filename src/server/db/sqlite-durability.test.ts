import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-durability-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The promises docs/operations.md makes about the SQLite file: WAL, so readers go on while one
// writer commits, and synchronous=FULL, so an acknowledged commit survives a power cut.
describe('SQLite settings', () => {
  it('opens the file in WAL mode with full syncs and foreign keys on', async () => {
    const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    try {
      const read = async (pragma: string) =>
        Object.values((await sql.raw(`pragma ${pragma}`).execute(db.kysely)).rows[0] as object)[0];
      expect(await read('journal_mode')).toBe('wal');
      expect(await read('synchronous')).toBe(2); // FULL
      expect(await read('foreign_keys')).toBe(1);
      expect(await read('busy_timeout')).toBe(5000);
    } finally {
      await db.close();
    }
  });
});
