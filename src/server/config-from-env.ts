import fs from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.ts';

/**
 * The configuration of this process: `.env` in the working folder (if any) under the real
 * environment, validated. A bad setting prints one line per variable and exits with 1.
 */
export function configFromEnvOrExit(): Config {
  // Better Auth's own switch, on top of `telemetry: { enabled: false }`: nothing phones home.
  process.env.BETTER_AUTH_TELEMETRY = '0';
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
