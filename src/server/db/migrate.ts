import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import type { Db, Dialect } from './database.ts';
import { initial } from './migrations/0001-initial.ts';
import { authHardening } from './migrations/0002-auth-hardening.ts';
import { deletedClient } from './migrations/0004-deleted-client.ts';
import { clientListOrder } from './migrations/0005-client-list-order.ts';
import { userListView } from './migrations/0006-user-list-view.ts';
import { serversAndCredentials } from './migrations/0007-servers-and-credentials.ts';
import { eventServer } from './migrations/0008-event-server.ts';
import { vaultAndHostKeys } from './migrations/0009-vault-and-host-keys.ts';
import { peopleAndSecondFactors } from './migrations/0010-people-and-second-factors.ts';
import { apiTokens } from './migrations/0011-api-tokens.ts';
import { webhooks } from './migrations/0012-webhooks.ts';
import { appsRunsIssues } from './migrations/0013-apps-runs-issues.ts';
import { totpLastStep } from './migrations/0014-totp-last-step.ts';
import { oneTwoFactorPerPerson } from './migrations/0015-one-two-factor-per-person.ts';
import { noProviderTokens } from './migrations/0016-no-provider-tokens.ts';
import { webhookDeliveryKeep } from './migrations/0017-webhook-delivery-keep.ts';
import { hashedResetTokens } from './migrations/0018-hashed-reset-tokens.ts';
import { adminsWithoutTags } from './migrations/0019-admins-without-tags.ts';
import { eventTagsBefore } from './migrations/0020-event-tags-before.ts';

/** Every migration, in order. Listed in code so the build carries them and nothing is scanned. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': initial(dialect),
    '0002-auth-hardening': authHardening(dialect),
    '0004-deleted-client': deletedClient(dialect),
    '0005-client-list-order': clientListOrder(),
    '0006-user-list-view': userListView(),
    '0007-servers-and-credentials': serversAndCredentials(dialect),
    '0008-event-server': eventServer(),
    '0009-vault-and-host-keys': vaultAndHostKeys(dialect),
    '0010-people-and-second-factors': peopleAndSecondFactors(dialect),
    '0011-api-tokens': apiTokens(dialect),
    '0012-webhooks': webhooks(dialect),
    '0013-apps-runs-issues': appsRunsIssues(dialect),
    '0014-totp-last-step': totpLastStep(),
    '0015-one-two-factor-per-person': oneTwoFactorPerPerson(),
    '0016-no-provider-tokens': noProviderTokens(),
    '0017-webhook-delivery-keep': webhookDeliveryKeep(),
    '0018-hashed-reset-tokens': hashedResetTokens(),
    '0019-admins-without-tags': adminsWithoutTags(),
    '0020-event-tags-before': eventTagsBefore(),
  };
}

function migrator(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations(db.dialect) },
  });
}

/** The names of this version's migrations, in order: what a database it migrated has applied. */
export function migrationNames(): string[] {
  return Object.keys(migrations('sqlite'));
}

/**
 * The database has run a migration this version does not have: a newer version migrated it (an
 * upgrade rolled back, or an older instance restarted beside one that had migrated). Starting
 * would find tables and columns it does not know.
 */
export class NewerDatabaseError extends Error {
  override name = 'NewerDatabaseError';
  readonly migration: string;

  constructor(migration: string) {
    super(
      `the database was migrated by a newer version of Clients Manager (${migration}): run that version, or restore a backup this version made before the upgrade.`,
    );
    this.migration = migration;
  }
}

function applied({ error, results }: MigrationResultSet): string[] {
  // Kysely's words for a migration it finds run but not listed.
  const unknown = /^corrupted migrations: previously executed migration (.+) is missing$/.exec(
    (error as Error | undefined)?.message ?? '',
  );
  if (unknown) throw new NewerDatabaseError(unknown[1]!);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Brings the schema up to date. Instances and commands that start together migrate once: on
 * PostgreSQL Kysely's migrator holds an advisory lock and runs the migrations in one
 * transaction; on SQLite, `underSqliteLock` does the same.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return applied(await underSqliteLock(db, () => migrator(db).migrateToLatest()));
}

/** Brings the schema to `name` and no further: a migration's test starts from the one before. */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return applied(await underSqliteLock(db, () => migrator(db).migrateTo(name)));
}

/** How long a command waits for another process's SQLite migrations before giving up. */
const SQLITE_MIGRATION_WAIT_MS = 10 * 60_000;

/**
 * On SQLite, Kysely's migration lock does nothing (it guards its one connection, not the file)
 * and each migration runs outside a transaction: two processes starting on a fresh file both
 * created the same tables, and one died with `table "user" already exists`. This runs the whole
 * migration in one `BEGIN IMMEDIATE` transaction on the database's single connection: it holds
 * SQLite's write lock, which other processes wait for, so the next one reads what has run only
 * after the first committed, and a failed migration leaves the schema as it was (SQLite's DDL
 * is transactional). Called before anything else uses the connection.
 */
async function underSqliteLock(
  db: Db,
  migrate: () => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  if (db.dialect !== 'sqlite') return migrate();
  const deadline = Date.now() + SQLITE_MIGRATION_WAIT_MS;
  for (;;) {
    try {
      await sql`begin immediate`.execute(db.kysely);
      break;
    } catch (error) {
      // Each attempt waits the connection's busy timeout; migrations can take longer.
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > deadline) {
        throw error;
      }
    }
  }
  let result: MigrationResultSet | undefined;
  try {
    result = await migrate();
  } finally {
    await sql.raw(result && !result.error ? 'commit' : 'rollback').execute(db.kysely);
  }
  return result;
}
