import { z } from 'zod';
import { isStorableText } from '#shared/clients.ts';
import { PRIVATE_KEY_MAX, SECRET_MAX, credentialNameSchema } from '#shared/credentials.ts';
import { credentialIdSchema, credentialKindSchema, serverFieldsSchema } from '#shared/servers.ts';
import type { CredentialKind } from '#shared/servers.ts';
import { describeLockedKey, describePrivateKey, KeyRefused } from '#server/ssh/ssh-keys.ts';
import { kdfRounds, MAX_KDF_ROUNDS } from '#server/ssh/locked-key.ts';
import type { CredentialMaterial } from '#server/features/credentials/credential-secrets.ts';
import type { ListedServer } from '#server/features/servers/server-list-writes.ts';
import { ImportFileError } from './import-errors.ts';

/** The credentials one file may list: a vault of this many is already a large one. */
export const IMPORT_MAX_CREDENTIALS = 1000;

/**
 * The bcrypt rounds all passphrase-protected keys of one file may take to open together: some
 * minutes of a core (ssh2 derives about 60 a second), 1,250 keys at OpenSSH's default of 16 or
 * 200 at the usual advice of 100. Each key alone may take up to MAX_KDF_ROUNDS.
 */
export const IMPORT_MAX_KDF_ROUNDS = 20_000;

/** One server of a client in a version 2 export, validated as the server forms validate. */
export type ImportedServer = ListedServer;

/** A credential listed in a version 2 export; `material` null when the file has no secret. */
export interface FileCredential {
  id: string;
  name: string;
  kind: CredentialKind;
  material: CredentialMaterial | null;
}

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const storable = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .refine(isStorableText, 'Must not contain NUL characters or broken Unicode');

const fileCredentialSchema = z
  .object({
    id: credentialIdSchema,
    name: credentialNameSchema,
    kind: credentialKindSchema,
    secret: storable(PRIVATE_KEY_MAX).min(1, 'Must not be empty').optional(),
    passphrase: storable(1024).nullable().optional(),
  })
  // A password or token as long as the vault takes one: a longer one could be imported but
  // never rotated to or typed in again.
  .superRefine((credential, context) => {
    if (credential.kind !== 'ssh-key' && (credential.secret?.length ?? 0) > SECRET_MAX) {
      context.addIssue({
        code: 'custom',
        path: ['secret'],
        message: `Must be at most ${SECRET_MAX} characters`,
      });
    }
  });

/** The first issue of a failed parse, as `path: message` under `prefix`. */
function firstIssue(prefix: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.');
  return `${path}: ${issue.message}`;
}

/**
 * What a credential in the file holds, in clear. An SSH key is read (with its passphrase) and
 * its public half derived from it rather than taken from the file, so the public key shown and
 * put in `authorized_keys` is always the key's own.
 */
async function materialOf(
  kind: CredentialKind,
  secret: string,
  passphrase: string | null,
  field: string,
): Promise<CredentialMaterial> {
  if (kind !== 'ssh-key') return { secret, passphrase: null, publicKey: null, fingerprint: null };
  try {
    const pair =
      passphrase === null
        ? describePrivateKey(secret)
        : await describeLockedKey(secret, passphrase);
    return {
      secret,
      passphrase,
      publicKey: pair.publicKey,
      fingerprint: pair.fingerprint.fingerprint,
    };
  } catch (error) {
    // Never the key's text in the message: it is a secret.
    const message =
      error instanceof KeyRefused ? error.message : 'Not a private key in OpenSSH or PEM format';
    throw new ImportFileError(`${field}.secret: ${message}`);
  }
}

/**
 * The `credentials` list of a version 2 export, by id. It is not a client document: one that
 * cannot be read makes the whole file unreadable (a 400 naming it), as nothing could say which
 * clients to import without it.
 */
export async function mapFileCredentials(value: unknown): Promise<Map<string, FileCredential>> {
  const byId = new Map<string, FileCredential>();
  if (value === undefined || value === null) return byId;
  if (!Array.isArray(value)) throw new ImportFileError('credentials: Must be a list');
  if (value.length > IMPORT_MAX_CREDENTIALS) {
    throw new ImportFileError(
      `credentials: At most ${IMPORT_MAX_CREDENTIALS} in one file: import it in parts`,
    );
  }
  const listed = value.map((raw: unknown, n) => {
    const field = `credentials.${n}`;
    if (!isPlain(raw)) throw new ImportFileError(`${field}: Must be an object`);
    const parsed = fileCredentialSchema.safeParse(raw);
    if (!parsed.success) throw new ImportFileError(firstIssue(field, parsed.error));
    return { field, ...parsed.data };
  });
  // Before any key is opened: the rounds are each key file's own field, so the work one file
  // asks for is bounded here, not by how long someone is willing to wait for it. A key over
  // the limit of one key costs nothing: it is refused at once in its turn, naming its field.
  const rounds = listed.reduce((sum, { kind, secret, passphrase }) => {
    if (kind !== 'ssh-key' || secret === undefined || typeof passphrase !== 'string') return sum;
    const own = kdfRounds(secret) ?? 0;
    return own > MAX_KDF_ROUNDS ? sum : sum + own;
  }, 0);
  if (rounds > IMPORT_MAX_KDF_ROUNDS) {
    throw new ImportFileError(
      `credentials: The keys' passphrases take ${rounds} bcrypt rounds to open in all, more than ${IMPORT_MAX_KDF_ROUNDS} for one file: import it in parts, or protect the keys again with fewer rounds (ssh-keygen -p -a 16)`,
    );
  }
  // One key at a time: a key with a passphrase takes a worker thread a core's time to open.
  for (const { field, id, name, kind, secret, passphrase } of listed) {
    if (byId.has(id)) {
      throw new ImportFileError(`${field}.id: The same id as an earlier credential`);
    }
    const material =
      secret === undefined ? null : await materialOf(kind, secret, passphrase ?? null, field);
    byId.set(id, { id, name, kind, material });
  }
  return byId;
}

const hostKeySchema = z.object({
  algorithm: z.string().regex(/^[A-Za-z0-9@._+-]{1,100}$/, 'Must be an SSH key algorithm name'),
  fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'Must be a SHA256 fingerprint'),
});

const importedServerSchema = serverFieldsSchema.extend({
  primary: z.boolean('Must be true or false').default(false),
  hostKey: hostKeySchema.nullable().default(null),
});

/**
 * A document's `servers`: each server as the server forms validate it, labels unique, at most
 * one primary (none marked: the first is), and each credential one the file lists. The first
 * problem is the reason, naming the field (`servers.1.host: …`).
 */
export function mapServers(
  value: unknown,
  credentials: ReadonlyMap<string, FileCredential>,
): { servers: ImportedServer[] } | { reason: string } {
  if (!Array.isArray(value)) return { reason: 'servers: Must be a list' };
  const servers: ImportedServer[] = [];
  const labels = new Map<string, number>();
  for (const [n, raw] of value.entries()) {
    const field = `servers.${n}`;
    if (!isPlain(raw)) return { reason: `${field}: Must be an object` };
    const parsed = importedServerSchema.safeParse(raw);
    if (!parsed.success) return { reason: firstIssue(field, parsed.error) };
    const server = parsed.data;
    // Ignoring case, as the server routes compare labels: `web` and `WEB` name one server.
    const key = server.label.toLocaleLowerCase('en');
    const first = labels.get(key);
    if (first !== undefined) {
      return {
        reason: `${field}.label: The same label as server ${first}; labels are unique within a client`,
      };
    }
    labels.set(key, n);
    if (server.credentialId !== null && !credentials.has(server.credentialId)) {
      return { reason: `${field}.credentialId: The file's "credentials" have no such id` };
    }
    if (server.primary && servers.some((s) => s.primary)) {
      return { reason: `${field}.primary: Only one server can be the primary` };
    }
    servers.push(server);
  }
  if (servers.length > 0 && !servers.some((s) => s.primary)) servers[0]!.primary = true;
  return { servers };
}
