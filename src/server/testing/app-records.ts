import type { App } from '#shared/apps.ts';
import type { TestServer, Session } from './test-server.ts';
import { newRecordId } from '#server/db/record-id.ts';
import type { Insertable } from 'kysely';
import type { Dialect } from '#server/db/database.ts';
import type { RunTable } from '#server/db/schema.ts';
import { startedRunRow } from '#server/features/runs/run-rows.ts';

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
      ...runningRunRow(
        db.dialect,
        {
          appId: made.body.id,
          clientId: target.clientId,
          serverId: target.serverId,
          startedBy: { id: null, name: 'route test' },
          command: 'echo deployed',
        },
        at,
      ),
      id: runId,
      state: 'succeeded',
      endedAt: at,
      exitCode: 0,
      logBytes: 9,
    })
    .execute();
  await db.kysely
    .insertInto('runLog')
    .values({ runId, seq: 1, stream: 'out', text: 'deployed\n', at })
    .execute();
  return { app: made.body, runId };
}

/**
 * A run's row as a deploy records it when it starts (running, no log yet), written straight to
 * the database by tests that need one without an SSH server.
 */
export function runningRunRow(
  dialect: Dialect,
  run: {
    appId: string;
    clientId: string;
    serverId: string | null;
    startedBy: { id: string | null; name: string };
    command: string;
  },
  at = new Date().toISOString(),
): Insertable<RunTable> {
  return startedRunRow(dialect, { id: newRecordId(), ...run }, at);
}
