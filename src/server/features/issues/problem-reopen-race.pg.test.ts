import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { holdEventLock, lockWaiters } from '#server/testing/event-lock.ts';
import { openProblem, serverProblemKey } from './problem-issues.ts';

/**
 * Two reopens that each found no open issue for their problem, then both open one, which a
 * unique index allows once: on PostgreSQL the second waits on the first's row and then fails
 * (SQLite has one writer at a time, so the later one sees the first's row). Made to happen every
 * time: the first is held at its last step (the event log's lock) until the second waits.
 */
const t = serveThisFile({
  staff: {
    admin: { name: 'Ada Admin', role: 'admin' },
    editor: { name: 'Eddie Editor', role: 'editor' },
  },
});

describe('reopening a problem issue', () => {
  it('answers the 409 of an open newer issue, never 500, when two are reopened at once', async () => {
    const made = await t.staff.editor.json<Client>('POST', '/api/clients', { name: 'Raced' });
    expect(made.status).toBe(201);
    const { db } = t.server.app.parts;
    const key = serverProblemKey(newRecordId(), 'server_unreachable');
    const resolvedIssues: string[] = [];
    for (const n of [1, 2]) {
      const id = await db.kysely.transaction().execute((trx) =>
        openProblem(trx, db.dialect, {
          key,
          clientId: made.body.id,
          title: `Down ${n}`,
          text: '',
          at: new Date().toISOString(),
        }),
      );
      expect((await t.staff.editor.json('POST', `/api/issues/${id}/resolve`)).status).toBe(200);
      resolvedIssues.push(id!);
    }
    // The first reopen stops at its last step, its row open; the second, which found no open
    // issue for the problem either, then waits on the unique index of open problems.
    const lock = await holdEventLock(db.kysely);
    const first = t.staff.editor.json('POST', `/api/issues/${resolvedIssues[0]}/reopen`);
    await expect.poll(lockWaiters(db.kysely, 'advisory')).toBe(1);
    const second = t.staff.admin.json<{ error: string }>(
      'POST',
      `/api/issues/${resolvedIssues[1]}/reopen`,
    );
    await expect.poll(lockWaiters(db.kysely, 'transactionid')).toBe(1);
    await lock.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 409]);
    expect(answers[1].body).toEqual({
      error: `A newer issue about this problem is open (${resolvedIssues[0]}): follow that one instead`,
    });
  });
});
