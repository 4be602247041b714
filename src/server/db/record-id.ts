import { randomBytes } from 'node:crypto';

/** URL-safe random id, 16 characters (96 bits): clients, servers and credentials. */
export function newRecordId(): string {
  return randomBytes(12).toString('base64url');
}

/** Who writes a record: a person, or nobody (a command-line import). */
export interface Author {
  id: string | null;
}

/** Who made a new record and when; a new record starts at version 1. */
export function newRecordStamps(actor: Author, at: string) {
  return { createdAt: at, createdBy: actor.id, updatedAt: at, updatedBy: actor.id, version: 1 };
}
