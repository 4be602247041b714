import type { Db } from '#server/db/database.ts';
import { fromBool } from '#server/db/codec.ts';
import { newRecordId, newRecordStamps } from '#server/db/record-id.ts';

/**
 * Adds a server after the client's last one, written straight to the database: for tests below
 * the HTTP layer that need a server with a given credential or pinned host key (the routes'
 * own rules are tested through them).
 */
export async function addServerRow(
  db: Db,
  clientId: string,
  fields: {
    label: string;
    host: string;
    port?: number;
    credentialId?: string | null;
    hostKey?: { algorithm: string; fingerprint: string } | null;
  },
  actor: { id: string | null; name: string },
): Promise<string> {
  const last = await db.kysely
    .selectFrom('server')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('clientId', '=', clientId)
    .executeTakeFirst();
  const id = newRecordId();
  await db.kysely
    .insertInto('server')
    .values({
      id,
      clientId,
      position: Number(last?.p ?? -1) + 1,
      label: fields.label,
      host: fields.host,
      port: fields.port ?? 22,
      username: 'deploy',
      uiDir: '/srv/ui',
      private: fromBool(false, db.dialect),
      credentialId: fields.credentialId ?? null,
      hostKeyAlgorithm: fields.hostKey?.algorithm ?? null,
      hostKeyFingerprint: fields.hostKey?.fingerprint ?? null,
      offeredHostKeyAlgorithm: null,
      offeredHostKeyFingerprint: null,
      checkReason: null,
      checkedAt: null,
      statusSince: null,
      ...newRecordStamps(actor, new Date().toISOString()),
    })
    .execute();
  return id;
}
