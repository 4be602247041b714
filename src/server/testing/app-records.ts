import type { App } from '#shared/apps.ts';
import type { TestServer, Session } from './test-server.ts';
import { fromBool } from '#server/db/codec.ts';
import { newRecordId } from '#server/db/record-id.ts';

/**
 * An app of the client on its server, made through the API, and an ended run of it with one
 * line of log, written straight to the database as a run would leave it (a real run needs an
 * SSH server: runs.test.ts has those). For the tests that walk every route.
 */
export async function appWithEndedRun(
  server: Pick<TestServer, 'app'>,
  session: Session,
  target: { clientId: string; serverId: string },
  name = 'Route app',
): Promise<{ app: App; runId: string }> {
  const made = await session.json<App>('POST', '/api/apps', { ...target, name });
  if (made.status !== 201) {
    throw new Error(`POST /api/apps answered ${made.status}: ${JSON.stringify(made.body)}`);
  }
  const { db } = server.app.parts;
  const runId = newRecordId();
  const at = new Date().toISOString();
  await db.kysely
    .insertInto('run')
    .values({
      id: runId,
      appId: made.body.id,
      clientId: target.clientId,
      serverId: target.serverId,
      state: 'succeeded',
      command: 'echo deployed',
      startedById: null,
      startedByName: 'route test',
      startedAt: at,
      endedAt: at,
      exitCode: 0,
      signal: null,
      reason: null,
      logBytes: 9,
      logTruncated: fromBool(false, db.dialect),
      heartbeatAt: at,
      cancelRequestedAt: null,
      cancelRequestedBy: null,
    })
    .execute();
  await db.kysely
    .insertInto('runLog')
    .values({ runId, seq: 1, stream: 'out', text: 'deployed\n', at })
    .execute();
  return { app: made.body, runId };
}
