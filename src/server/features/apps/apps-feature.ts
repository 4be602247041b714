import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import type { EventHub } from '#server/realtime/event-hub.ts';
import type { DeployTokens } from '../account/deploy-tokens.ts';
import { RunManager, type RunTimings } from '../runs/run-manager.ts';
import { RunStreams, registerRunRoutes } from '../runs/run-routes.ts';
import { AppRepository } from './app-repository.ts';
import { registerAppRoutes } from './app-routes.ts';

/**
 * Apps and their runs put together for app.ts in one call. Runs a dead process left 'running'
 * are marked interrupted before the routes answer; on close the live log streams end first
 * (with the event hub's, before the server closes), then this instance's runs are cancelled and
 * recorded as interrupted while the database is still open.
 */
export async function registerAppsFeature(
  app: FastifyInstance,
  deps: {
    db: Db;
    box: SecretBox;
    hub: EventHub;
    tokens: DeployTokens;
    appRunTemplate: string;
    log: FastifyBaseLogger;
    timings?: RunTimings;
  },
): Promise<RunManager> {
  const { db, hub } = deps;
  const onCommitted = () => void hub.wake();
  const runs = new RunManager({
    db,
    box: deps.box,
    tokens: deps.tokens,
    defaultCommand: deps.appRunTemplate,
    onCommitted,
    log: deps.log,
    ...(deps.timings ? { timings: deps.timings } : {}),
  });
  await runs.open();
  const streams = new RunStreams();
  app.addHook('preClose', async () => streams.close());
  // Registered after the database's hook, so it runs first (Fastify closes in reverse).
  app.addHook('onClose', async () => runs.close());
  registerAppRoutes(app, {
    db,
    apps: new AppRepository(db, deps.appRunTemplate, onCommitted),
    runs,
  });
  registerRunRoutes(app, { db, runs, streams });
  return runs;
}
