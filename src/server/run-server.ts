import { configFromEnvOrExit } from './config-from-env.ts';
import { ConfigError } from './config.ts';
import { buildApp } from './app.ts';

const config = configFromEnvOrExit();
const app = await buildApp(config).catch((error: unknown) => {
  // A setting that only the database can judge (the key): refused as a bad variable is.
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
});

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

await app.listen({ port: config.port, host: config.host });
app.log.info(`Clients Manager is ready at ${config.publicUrl}`);
