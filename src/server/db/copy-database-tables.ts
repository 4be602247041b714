import type { Database } from './schema.ts';

/** A copied table: what its schema does not say. Its columns are read from the databases. */
export type CopiedTable = {
  [T in keyof Database]: {
    name: T;
    /** Rows are read and hashed in the order of this key (the primary key, one or more columns). */
    key: readonly (keyof Database[T] & string)[];
    /** Copied only when asked (sessions: without them, people sign in again). */
    optional?: 'sessions';
  };
}[keyof Database];

/**
 * What is copied, in an order that satisfies the foreign keys. A table of the databases that is
 * neither here nor in NOT_COPIED is refused, so a new migration cannot be silently left out.
 */
export const COPIED_TABLES: readonly CopiedTable[] = [
  { name: 'user', key: ['id'] },
  { name: 'account', key: ['id'] },
  { name: 'verification', key: ['id'] },
  { name: 'session', key: ['id'], optional: 'sessions' },
  { name: 'twoFactor', key: ['id'] },
  { name: 'passkey', key: ['id'] },
  { name: 'invitation', key: ['id'] },
  { name: 'apiToken', key: ['id'] },
  { name: 'deployToken', key: ['userId'] },
  { name: 'credential', key: ['id'] },
  { name: 'client', key: ['id'] },
  { name: 'server', key: ['id'] },
  { name: 'deletedClient', key: ['id'] },
  { name: 'event', key: ['seq'] },
  { name: 'webhook', key: ['id'] },
  { name: 'webhookDelivery', key: ['id'] },
  { name: 'app', key: ['id'] },
  { name: 'run', key: ['id'] },
  { name: 'runLog', key: ['runId', 'seq'] },
  { name: 'issue', key: ['id'] },
  { name: 'issueComment', key: ['id'] },
];

/**
 * Short-lived auth rate-limit counters. (Kysely's migration bookkeeping is not copied either:
 * its introspection leaves it out, and the target is migrated by the same code.)
 */
export const NOT_COPIED: ReadonlySet<string> = new Set(['rateLimit']);
