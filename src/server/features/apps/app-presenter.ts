import type { Selectable } from 'kysely';
import type { App, Run } from '#shared/apps.ts';
import type { AppTable } from '#server/db/schema.ts';
import { toIso, toStringList } from '#server/db/codec.ts';

/** An app's row with its client and, when it has one, its server. */
export type AppRow = Selectable<AppTable> & {
  clientName: string;
  clientCode: string;
  serverLabel: string | null;
  serverHost: string | null;
  serverUiDir: string | null;
};

/** The directory a run of the app uses: its own, or else its server's UI directory. */
export function runDirectory(row: { directory: string; serverUiDir: string | null }): string {
  return row.directory || (row.serverUiDir ?? '');
}

/**
 * An app as the API presents it: what it set, and what a run uses (`effectiveDirectory`: its
 * own or its server's uiDir; `effectiveCommand`: its own or APP_RUN_TEMPLATE).
 */
export function presentApp(row: AppRow, defaultCommand: string, lastRun: Run | null): App {
  const server =
    row.serverId === null || row.serverLabel === null
      ? null
      : { id: row.serverId, label: row.serverLabel, host: row.serverHost ?? '' };
  return {
    id: row.id,
    client: { id: row.clientId, name: row.clientName, code: row.clientCode },
    server,
    name: row.name,
    directory: row.directory,
    effectiveDirectory: runDirectory(row),
    domains: toStringList(row.domains),
    command: row.command,
    effectiveCommand: row.command ?? defaultCommand,
    lastRun,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    version: row.version,
  };
}
