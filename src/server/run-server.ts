import { configFromEnvOrExit } from './config-from-env.ts';
import { buildApp } from './app.ts';

const config = configFromEnvOrExit();
const app = await buildApp(config);

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
