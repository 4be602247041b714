import { describe, expect, it } from 'vitest';
import type { ImportReport } from '#shared/client-transfer.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { holdEventLock, lockWaiters } from '#server/testing/event-lock.ts';

/**
 * Two imports that each found no client of an id, then both insert it: on PostgreSQL the second
 * waits on the first's row and then fails (SQLite has one writer at a time, so the later one sees
 * the first's row). Made to happen every time: the first is held at its last step (the event
 * log's lock) until the second waits on its row.
 */
const t = serveThisFile({ staff: { editor: { name: 'Eddie Editor', role: 'editor' } } });

describe('importing a new client', () => {
  it('answers 409, never 500, to an import of a new id another import creates meanwhile', async () => {
    const importFile = (body: unknown) =>
      t.staff.editor.json<ImportReport>('POST', '/api/clients/import', body);
    const db = t.server.app.parts.db.kysely;
    // The first import stops at its last step, its client row inserted; the second, which
    // found no such client either, then waits on that row's key.
    const lock = await holdEventLock(db);
    const file = [{ id: 'raced-import-1', name: 'Raced import' }];
    const first = importFile(file);
    await expect.poll(lockWaiters(db, 'advisory')).toBe(1);
    const second = importFile(file);
    await expect.poll(lockWaiters(db, 'transactionid')).toBe(1);
    await lock.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 409]);
    expect(answers[1]!.body).toEqual({
      error: 'Some of these clients were imported meanwhile: run the import again.',
    });
    const again = await importFile(file);
    expect(again.body).toMatchObject({ created: 0, unchanged: 1 });
  });
});
