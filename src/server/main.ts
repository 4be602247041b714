import fs from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';

// Better Auth's own switch, on top of `telemetry: { enabled: false }`: nothing phones home.
process.env.BETTER_AUTH_TELEMETRY = '0';

function readConfig(): Config {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
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
