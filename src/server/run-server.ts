import { configFromEnvOrExit } from './config-from-env.ts';
import { buildApp } from './app.ts';
import { startFailureMessage } from './start-failure.ts';

const config = configFromEnvOrExit();

/**
 * A setting only the database can judge (the key), or a machine that does not let the server
 * start (no database there, a data folder it cannot use, a port in use): one line and exit 1,
 * as a bad variable gets. Anything else is a bug and keeps its stack.
 */
function refuseStart(error: unknown): never {
  const message = startFailureMessage(error, config);
  if (message === null) throw error;
  console.error(message);
  process.exit(1);
}

const app = await buildApp(config).catch(refuseStart);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  const force = setTimeout(() => {
    app.log.error('shutdown took over 10 s: exiting');
    process.exit(1);
  }, 10_000).unref();
  await app.close();
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
  await app.close();
  refuseStart(error);
});
app.log.info(`Clients Manager is ready at ${config.publicUrl}`);
