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

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Brings the schema up to date. Kysely's migrator holds a lock while it runs, so instances
 * that start together migrate once.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return applied(await migrator(db).migrateToLatest());
}

/** Brings the schema to `name` and no further: a migration's test starts from the one before. */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return applied(await migrator(db).migrateTo(name));
}
