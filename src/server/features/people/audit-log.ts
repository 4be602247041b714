import type { ClientEventKind } from '#shared/events.ts';
import { AUDIT_EVENT_KINDS, type AuditPage, type auditQuerySchema } from '#shared/people-admin.ts';
import type { z } from 'zod';
import type { Db } from '#server/db/database.ts';
import { presentEvent } from '#server/realtime/event-log.ts';

/**
 * The audit trail: changes to people and reads of secrets, newest first, a page at a time by
 * sequence number (stable while new events arrive at the top).
 */
export async function readAudit(
  db: Db,
  query: z.output<typeof auditQuerySchema>,
): Promise<AuditPage> {
  let select = db.kysely
    .selectFrom('event')
    .selectAll()
    .where('kind', 'in', query.kind ? [query.kind] : [...AUDIT_EVENT_KINDS])
    .orderBy('seq', 'desc')
    .limit(query.limit + 1);
  if (query.actor !== undefined) select = select.where('actorId', '=', query.actor);
  if (query.person !== undefined) select = select.where('personId', '=', query.person);
  if (query.before !== undefined) select = select.where('seq', '<', query.before);
  const rows = await select.execute();
  const page = rows.slice(0, query.limit);
  const ids = [...new Set(page.flatMap((row) => (row.personId === null ? [] : [row.personId])))];
  const people: Record<string, string> = {};
  if (ids.length > 0) {
    const [users, invitations] = await Promise.all([
      db.kysely.selectFrom('user').select(['id', 'email']).where('id', 'in', ids).execute(),
      db.kysely.selectFrom('invitation').select(['id', 'email']).where('id', 'in', ids).execute(),
    ]);
    for (const { id, email } of [...invitations, ...users]) people[id] = email;
  }
  return {
    events: page.map((row) => presentEvent(row, row.kind as ClientEventKind)),
    people,
    next: rows.length > query.limit ? Number(page.at(-1)!.seq) : null,
  };
}
