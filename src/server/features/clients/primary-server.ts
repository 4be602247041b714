import type { Transaction } from 'kysely';
import type { Client, ClientValues } from '#shared/clients.ts';
import type { Database } from '#server/db/schema.ts';
import type { Dialect } from '#server/db/database.ts';
import { fromBool } from '#server/db/codec.ts';
import { joinKey } from '#server/db/join-key.ts';
import { newRecordId, newRecordStamps, type Author } from '#server/db/record-id.ts';
import { movedServerColumns } from '../servers/server-rows.ts';
import type { SecretBox } from '#server/secrets.ts';
import {
  clientPasswordName,
  newPasswordCredential,
  resealCredential,
} from '../credentials/credential-secrets.ts';

type ServerValues = ClientValues['server'];

/** The label of the server that the client form's 'Server details' make. */
export const PRIMARY_SERVER_LABEL = 'main';

/** Where the client form's server writes run. */
export interface ServerWriteContext {
  trx: Transaction<Database>;
  dialect: Dialect;
  box: SecretBox;
  actor: Author;
  at: string;
}

function serverColumns(values: ServerValues, dialect: Dialect) {
  return {
    host: values.host,
    port: values.port,
    username: values.username,
    uiDir: values.uiDir,
    private: fromBool(values.private, dialect),
  };
}

/**
 * A new client's primary server and, when the form gave a password, the credential that keeps
 * it: rows to insert (credential first, then the client, then the server).
 */
export function newPrimaryServer(
  context: Omit<ServerWriteContext, 'trx'>,
  client: { id: string; name: string; code: string },
  values: ServerValues,
) {
  const { box, actor, at, dialect } = context;
  const credential = values.password
    ? newPasswordCredential(box, clientPasswordName(client), values.password, actor, at)
    : null;
  const server = {
    id: newRecordId(),
    clientId: client.id,
    position: 0,
    label: PRIMARY_SERVER_LABEL,
    ...serverColumns(values, dialect),
    credentialId: credential?.id ?? null,
    hostKeyAlgorithm: null,
    hostKeyFingerprint: null,
    checkReason: null,
    checkedAt: null,
    statusSince: null,
    ...newRecordStamps(actor, at),
  };
  return { server, credential };
}

/**
 * Stores the form's 'Server details' over the client's primary server (making one if it has
 * none). The password: omitted keeps it, empty removes it (and its credential, when no other
 * server uses it), a new one replaces the secret of the server's password credential when no
 * other server uses that, or else becomes a new credential of this server's own. A new host or
 * port unpins the host key: it belongs to the machine that answered there. True when it wrote
 * a server row.
 */
export async function updatePrimaryServer(
  context: ServerWriteContext,
  client: { id: string; name: string; code: string; primaryServerId: string | null },
  /**
   * The primary server as the client's read presents it, at the version the client's update
   * required (that version goes up whenever what it shows of the server changes).
   */
  stored: Client['server'],
  values: ServerValues,
): Promise<boolean> {
  // Most saves leave the server as it is. Nothing is written then: the server's version counts
  // changes, and a save that changes nothing here must not refuse an edit of it made meanwhile.
  if (client.primaryServerId !== null && !changes(stored, values)) return false;
  const { trx, dialect, box, actor, at } = context;
  const current =
    client.primaryServerId === null
      ? undefined
      : await trx
          .selectFrom('server')
          .leftJoin('credential', 'credential.id', 'server.credentialId')
          .select([
            'server.id',
            'server.host',
            'server.port',
            'server.version',
            'server.credentialId',
            'credential.kind as credentialKind',
          ])
          .where('server.id', '=', joinKey(client.primaryServerId))
          .executeTakeFirst();
  if (!current) {
    const { server, credential } = newPrimaryServer(context, client, values);
    if (credential) await trx.insertInto('credential').values(credential).execute();
    await trx.insertInto('server').values(server).execute();
    await trx
      .updateTable('client')
      .set({ primaryServerId: server.id })
      .where('id', '=', client.id)
      .execute();
    return true;
  }

  const password = values.password;
  const hasPasswordCredential = current.credentialKind === 'password';
  const moved = current.host !== values.host || current.port !== values.port;
  let credentialId = current.credentialId;
  let dropped: string | null = null;
  if (password === '' && hasPasswordCredential) {
    dropped = credentialId;
    credentialId = null;
  } else if (password && hasPasswordCredential && !(await usedElsewhere(trx, dialect, current))) {
    await resealCredential(trx, box, credentialId!, password, actor, at);
  } else if (password) {
    // A password credential other servers share stays theirs: the form names one server, and
    // its editor may not even see the others (tags). This server gets one of its own instead.
    const credential = newPasswordCredential(box, clientPasswordName(client), password, actor, at);
    await trx.insertInto('credential').values(credential).execute();
    credentialId = credential.id;
  }

  await trx
    .updateTable('server')
    .set({
      ...serverColumns(values, dialect),
      credentialId,
      ...(moved ? movedServerColumns(at) : {}),
      updatedAt: at,
      updatedBy: actor.id,
      version: current.version + 1,
    })
    .where('id', '=', current.id)
    .execute();
  if (dropped !== null) await deleteIfUnused(trx, dropped);
  return true;
}

/** Whether a server other than `server` uses its credential. */
async function usedElsewhere(
  trx: Transaction<Database>,
  dialect: Dialect,
  server: { id: string; credentialId: string | null },
): Promise<boolean> {
  if (server.credentialId === null) return false;
  // On PostgreSQL the credential is locked first (SQLite writes one at a time): a server being
  // given it meanwhile (its foreign key check holds a lock this waits for) is then seen, and a
  // rotate in the vault is written before the form's password, not lost under it.
  if (dialect === 'postgres') {
    await trx
      .selectFrom('credential')
      .select('id')
      .where('id', '=', server.credentialId)
      .forUpdate()
      .execute();
  }
  const other = await trx
    .selectFrom('server')
    .select('id')
    .where('credentialId', '=', server.credentialId)
    .where('id', '!=', server.id)
    .executeTakeFirst();
  return other !== undefined;
}

/** Removes a credential no server uses any more (a password the form removed). */
async function deleteIfUnused(trx: Transaction<Database>, credentialId: string): Promise<void> {
  const user = await trx
    .selectFrom('server')
    .select('id')
    .where('credentialId', '=', credentialId)
    .executeTakeFirst();
  if (!user) await trx.deleteFrom('credential').where('id', '=', credentialId).execute();
}

/** Whether the form's 'Server details' change `server`: a password given, or removed from it. */
function changes(server: Client['server'], values: ServerValues): boolean {
  const { password } = values;
  return (
    server.host !== values.host ||
    server.port !== values.port ||
    server.username !== values.username ||
    server.uiDir !== values.uiDir ||
    server.private !== values.private ||
    (password !== undefined && (password !== '' || server.hasPassword))
  );
}
