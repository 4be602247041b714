import fs from 'node:fs';
import path from 'node:path';
import { configFromEnvOrExit } from '#server/config-from-env.ts';
import { openDatabase } from '#server/db/database.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { serversRunningOn } from '#server/db/servers-running.ts';
import { RotationError, rotateSecretKey } from '#server/secret-key-rotation.ts';
import { parseCommandLine, runCommand } from './run-command.ts';

const USAGE = `Usage: SECRET_KEY_PREVIOUS=<old key> SECRET_KEY=<new key> npm run rotate-secret-key

Re-encrypts every stored secret (the vault's credentials, the servers' passwords among them,
including those of deleted clients kept for undo, users' deploy access tokens, webhook
signing secrets, and people's authenticator secrets and backup codes) from
SECRET_KEY_PREVIOUS to SECRET_KEY, in one transaction: all or nothing. Running it again
after it finished changes nothing.

Stop the server (every instance) first and start it again with the new SECRET_KEY: it refuses
to run while one has the database open (a PostgreSQL instance's listening connection, the SQLite
file's lock). Keep the previous key until the servers have started: one left running unseen
seals what it writes next with the previous key, and the next start refuses, naming it; run
this again with both keys. Session
cookies are signed with a key derived from SECRET_KEY: the same transaction deletes every
session, and everyone signs in again (with their second factor as before). If the old key
lived in DATA_DIR/secret.key, keep SECRET_KEY set from now on (or put the new key in that
file).

Uses the same settings as the server (environment and .env: DATA_DIR, DATABASE_URL).`;

async function main(): Promise<number> {
  const { values } = parseCommandLine({ help: { type: 'boolean' } });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = configFromEnvOrExit();
  const previous = process.env.SECRET_KEY_PREVIOUS?.trim();
  const next = config.secretKey;
  if (!previous || !next) {
    console.error('Set both SECRET_KEY_PREVIOUS (the key in use) and SECRET_KEY (the new one).');
    console.error('');
    console.error(USAGE);
    return 2;
  }
  const running = await serversRunningOn(config.database);
  if (running) throw new RotationError(`Nothing was changed: ${running}`);
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const report = await rotateSecretKey(db.kysely, { previous, next });
    const { credentials, deployTokens, webhooks, twoFactors } = report.resealed;
    console.log(
      `Re-encrypted ${credentials} credential(s), ${deployTokens} deploy token(s), ${webhooks} webhook secret(s) and the authenticator secret and backup codes of ${twoFactors} person(s) under the new SECRET_KEY.`,
    );
    if (report.alreadyNew > 0) {
      console.log(`${report.alreadyNew} secret(s) were under the new key already.`);
    }
    const keyFile = path.join(config.dataDir, 'secret.key');
    if (fs.existsSync(keyFile) && fs.readFileSync(keyFile, 'utf8').trim() !== next) {
      console.log(
        `Note: ${keyFile} holds another key. The server uses SECRET_KEY when it is set; keep it set, or replace that file's content with the new key.`,
      );
    }
    console.log(
      `Ended ${report.sessionsEnded} session(s). Start the server with the new SECRET_KEY; everyone signs in again.`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

await runCommand(main, { usage: USAGE, refusals: [RotationError] });
