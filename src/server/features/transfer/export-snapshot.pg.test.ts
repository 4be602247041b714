import { randomBytes } from 'node:crypto';
import {
  SelectQueryNode,
  TableNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { SecretBox } from '#server/secrets.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { addServerRow } from '#server/testing/server-records.ts';
import { ClientRepository } from '#server/features/clients/client-repository.ts';
import { CredentialRepository } from '#server/features/credentials/credential-repository.ts';
import { materialOf } from '#server/features/credentials/credential-material.ts';
import { exportClients } from './client-export.ts';

/**
 * An export reads clients, their servers and the credentials those use in several statements.
 * On PostgreSQL a commit landing between them must not make a file that mixes two moments: a
 * server naming a credential the file lacks is a server the import cannot log in with.
 */

const actor = { id: null, name: 'export snapshot test' };

/** Calls `between` once, when the export's read of the servers has come back. */
function afterServersRead(between: () => Promise<void>): KyselyPlugin {
  const serverReads = new WeakSet<QueryId>();
  let done = false;
  return {
    transformQuery({ node, queryId }: PluginTransformQueryArgs) {
      if (SelectQueryNode.is(node)) {
        const [from] = node.from?.froms ?? [];
        if (from && TableNode.is(from) && from.table.identifier.name === 'server') {
          serverReads.add(queryId);
        }
      }
      return node;
    },
    async transformResult({ result, queryId }: PluginTransformResultArgs) {
      if (!done && serverReads.has(queryId)) {
        done = true;
        await between();
      }
      return result;
    },
  };
}

let db: Db;
let close: () => Promise<void>;
const box = new SecretBox(randomBytes(32).toString('hex'));

beforeAll(async () => {
  ({ db, close } = await openTestDatabase());
});
afterAll(async () => close?.());

describe('an export during writes', () => {
  it('is one moment: a credential swapped meanwhile is in the file the server names it in', async () => {
    const clients = new ClientRepository(db, box, () => undefined);
    const vault = new CredentialRepository(db, box, () => undefined);
    const person = { id: 'export-person', name: 'person@example.test' };
    await db.kysely
      .insertInto('user')
      .values(
        verifiedUserRow(db.dialect, person.id, new Date().toISOString(), {
          name: 'Person',
          email: person.name,
        }),
      )
      .execute();
    const client = await clients.create(
      {
        name: 'Acme',
        code: 'ACM',
        description: '',
        tags: [],
        domains: [],
        server: { host: 'acme.example', port: 22, username: 'deploy', private: true, uiDir: '' },
      },
      person,
    );
    const token = (name: string, secret: string) =>
      materialOf('token', { secret }, name).then((material) =>
        vault.create({ name, kind: 'token' }, material, person),
      );
    const before = await token('Old token', 'tok-old');
    const after = await token('New token', 'tok-new');
    const serverId = await addServerRow(
      db,
      client.id,
      { label: 'backup', host: 'backup.acme.example', credentialId: before.id },
      actor,
    );

    // Committed on another connection while the export's transaction is between its reads:
    // the server moves to the new token and the old one leaves the vault.
    const swap = () =>
      db.kysely.transaction().execute(async (trx) => {
        await trx
          .updateTable('server')
          .set({ credentialId: after.id })
          .where('id', '=', serverId)
          .execute();
        await trx.deleteFrom('credential').where('id', '=', before.id).execute();
      });
    const watched: Db = { ...db, kysely: db.kysely.withPlugin(afterServersRead(swap)) };
    const { file } = await exportClients(watched, box, clients, { secrets: true, actor });

    const servers = file.clients.flatMap((exported) => exported.servers);
    const backup = servers.find((server) => server.label === 'backup');
    const named = new Set(file.credentials.map((credential) => credential.id));
    expect(
      servers.flatMap((server) => server.credentialId ?? []).every((id) => named.has(id)),
    ).toBe(true);
    expect(backup?.credentialId).toBe(before.id);
    expect(file.credentials.find((credential) => credential.id === before.id)).toMatchObject({
      name: 'Old token',
      secret: 'tok-old',
    });
    // The swap did commit: the next export is the later moment.
    const { file: next } = await exportClients(db, box, clients, { secrets: false, actor });
    expect(next.credentials.map((credential) => credential.name)).not.toContain('Old token');
  });
});
