import type { z } from 'zod';
import { DEFAULT_SERVER_PORT } from '#shared/clients.ts';
import type { serverFieldsSchema } from '#shared/servers.ts';

type ServerValues = z.output<typeof serverFieldsSchema>;

/** A server's editable fields as stored, with `private` read as a boolean. */
export type StoredServerFields = Omit<ServerValues, 'private'> & { private: boolean };

/**
 * The event log's names for a server's fields: as the API presents a server (`credential`,
 * not the input's `credentialId`). Names only, never values.
 */
const FIELD_NAMES = {
  label: 'label',
  host: 'host',
  port: 'port',
  username: 'username',
  uiDir: 'uiDir',
  private: 'private',
  credentialId: 'credential',
} as const satisfies Record<keyof ServerValues, string>;

const KEYS = Object.keys(FIELD_NAMES) as (keyof ServerValues)[];

/** The fields a new server was given a value for (other than the empty or default one). */
export function createdServerFields(values: ServerValues): string[] {
  const defaults: StoredServerFields = {
    label: '',
    host: '',
    port: DEFAULT_SERVER_PORT,
    username: '',
    uiDir: '',
    private: true,
    credentialId: null,
  };
  return KEYS.filter((key) => values[key] !== defaults[key]).map((key) => FIELD_NAMES[key]);
}

/** The fields an update changes. */
export function changedServerFields(before: StoredServerFields, after: ServerValues): string[] {
  return KEYS.filter((key) => before[key] !== after[key]).map((key) => FIELD_NAMES[key]);
}
