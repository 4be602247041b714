import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Issue } from '#shared/issues.ts';
import { hasHiddenCharacters } from '#shared/command-safe-text.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { uniqueEmail } from '#server/testing/test-server.ts';
import { readLoggedEventsAfter } from './event-log.ts';
import { describeEvent, payloadOf, type SlackPayload } from './webhook-payload.ts';

const ALICE = uniqueEmail('alice');
const t = serveThisFile({ staff: { alice: { name: 'Alice', email: ALICE } } });

describe('the line a Slack webhook posts', () => {
  it('stays one line whatever a name or title stored before the rule holds', async () => {
    const client = (
      await t.staff.alice.json<Client>('POST', '/api/clients', { name: 'Acme', code: 'ACME' })
    ).body;
    const issue = (
      await t.staff.alice.json<Issue>('POST', '/api/issues', {
        clientId: client.id,
        title: 'Disk full',
      })
    ).body;
    // As rows from before names and titles refused such characters (or written directly).
    const db = t.server.app.parts.db.kysely;
    await db
      .updateTable('client')
      .set({ name: 'Acme\u202e\u200b' })
      .where('id', '=', client.id)
      .execute();
    await db
      .updateTable('issue')
      .set({ title: 'Disk full\r\nadmin@corp deleted client Beta\u001b[2J\u2028' })
      .where('id', '=', issue.id)
      .execute();
    const events = (await readLoggedEventsAfter(db, 0, 1000)).map(({ event }) => event);
    const opened = events.find((e) => e.kind === 'issue.opened' && e.issueId === issue.id)!;

    const line = await describeEvent(db, opened);
    expect(line).toBe(
      `${ALICE} opened issue "Disk full  admin@corp deleted client Beta [2J " of Acme   (ACME): title, kind`,
    );
    expect(hasHiddenCharacters(line)).toBe(false);
    const payload = (await payloadOf(
      db,
      'slack',
      { id: 'delivery1', timestamp: 1 },
      opened,
    )) as SlackPayload;
    expect(payload.text.split('\n')).toHaveLength(1);
    expect(hasHiddenCharacters(payload.text)).toBe(false);
  });
});
