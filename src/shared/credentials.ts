import { z } from 'zod';
import { recordVersionSchema } from './record-version.ts';
import { nextCursorSchema } from './pages.ts';
import { isStorableText } from './clients.ts';
import { hasHiddenCharacters, HIDDEN_CHARACTER_MESSAGE } from './command-safe-text.ts';
import { credentialKindSchema } from './servers.ts';
import { MIN_SECRET_LENGTH, SHORT_SECRET_MESSAGE } from './secret-length.ts';

export const GENERATED_KEY_TYPES = ['ed25519', 'rsa'] as const;
export const generatedKeyTypeSchema = z.enum(GENERATED_KEY_TYPES, {
  error: 'Must be ed25519 or rsa',
});

const storable = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .refine(isStorableText, 'Must not contain NUL characters or broken Unicode');

export const credentialNameSchema = storable(200)
  .trim()
  .min(1, 'Enter a name')
  .refine((value) => !hasHiddenCharacters(value), HIDDEN_CHARACTER_MESSAGE);

/** The longest private key (OpenSSH or PEM text) and the longest password or token stored. */
export const PRIVATE_KEY_MAX = 20_000;
export const SECRET_MAX = 4096;

/** A pasted private key: OpenSSH or PEM text. Whether it is one is checked by reading it. */
const privateKeyTextSchema = storable(PRIVATE_KEY_MAX).min(1, 'Paste a private key');
const passphraseSchema = storable(1024);
const secretSchema = storable(SECRET_MAX)
  .min(1, 'Enter the secret')
  .min(MIN_SECRET_LENGTH, SHORT_SECRET_MESSAGE);

/**
 * A new secret: for an SSH key, either `generate` (made in the server) or a pasted
 * `privateKey` with its `passphrase` when it has one; for a password or token, `secret`.
 */
const secretFields = {
  generate: generatedKeyTypeSchema.optional(),
  privateKey: privateKeyTextSchema.optional(),
  passphrase: passphraseSchema.optional(),
  secret: secretSchema.optional(),
};
type SecretFields = { [K in keyof typeof secretFields]?: z.output<(typeof secretFields)[K]> };

/**
 * The fields a kind needs, as issues on the field a form shows next to it. Shared by create
 * and rotate (rotate knows the kind from the stored credential).
 */
export function secretIssues(
  kind: z.infer<typeof credentialKindSchema>,
  given: SecretFields,
): { path: string; message: string }[] {
  // An empty passphrase is none: a form sends its empty field along with any choice.
  const value = given.passphrase === '' ? { ...given, passphrase: undefined } : given;
  if (kind === 'ssh-key') {
    if (value.secret !== undefined) {
      return [{ path: 'secret', message: 'An SSH key takes a private key, not a secret' }];
    }
    if (value.generate === undefined && value.privateKey === undefined) {
      return [{ path: 'privateKey', message: 'Paste a private key or choose one to generate' }];
    }
    if (value.generate !== undefined && value.privateKey !== undefined) {
      return [{ path: 'privateKey', message: 'Paste a key or generate one, not both' }];
    }
    if (value.generate !== undefined && value.passphrase !== undefined) {
      return [{ path: 'passphrase', message: 'A generated key has no passphrase' }];
    }
    return [];
  }
  const stray = (['generate', 'privateKey', 'passphrase'] as const).find(
    (field) => value[field] !== undefined,
  );
  if (stray) return [{ path: stray, message: `A ${kind} takes a secret, not an SSH key` }];
  if (value.secret === undefined) return [{ path: 'secret', message: 'Enter the secret' }];
  return [];
}

/** `POST /api/credentials`: a new credential in the vault. */
export const credentialCreateSchema = z
  .object({ name: credentialNameSchema, kind: credentialKindSchema, ...secretFields })
  .superRefine((value, context) => {
    for (const issue of secretIssues(value.kind, value)) {
      context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    }
  });
export type CredentialCreate = z.input<typeof credentialCreateSchema>;

/** `PUT /api/credentials/:id`: renames it; the secret changes only by a rotation. */
export const credentialUpdateSchema = z.object({
  name: credentialNameSchema,
  version: recordVersionSchema,
});
export type CredentialUpdate = z.input<typeof credentialUpdateSchema>;

/** `POST /api/credentials/:id/rotate`: replaces the secret, with the same fields as create. */
export const credentialRotateSchema = z.object({
  version: recordVersionSchema,
  ...secretFields,
});
export type CredentialRotate = z.input<typeof credentialRotateSchema>;

/**
 * `POST /api/credentials/:id/reveal`: the secret in clear, recorded in the credential's history
 * as revealed (shown on screen) or copied (to the clipboard, never shown).
 */
export const credentialRevealSchema = z.object({
  purpose: z.enum(['reveal', 'copy'], { error: 'Must be reveal or copy' }).default('reveal'),
});
/** The reveal route's body: none at all is a reveal. */
export const credentialRevealBodySchema = credentialRevealSchema
  .nullish()
  .transform((body) => body ?? { purpose: 'reveal' as const });
export const credentialSecretSchema = z.object({
  /** The private key (OpenSSH or PEM, as it was pasted or made), the password or the token. */
  secret: z.string(),
  /** A pasted key's passphrase; null when it has none. */
  passphrase: z.string().nullable(),
});
export type CredentialSecret = z.infer<typeof credentialSecretSchema>;

/** A credential as the vault lists it: never its secret. */
export const credentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: credentialKindSchema,
  /** For an SSH key: its public key as one `authorized_keys` line, and its SHA256 fingerprint. */
  publicKey: z.string().nullable(),
  fingerprint: z.string().nullable(),
  hasPassphrase: z.boolean(),
  /** The servers that sign in with it. */
  servers: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      client: z.object({ id: z.string(), name: z.string(), code: z.string() }),
    }),
  ),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  revealedAt: z.string().nullable(),
  revealedBy: z.string().nullable(),
  version: z.number(),
});
export type Credential = z.infer<typeof credentialSchema>;

export const credentialListSchema = z.object({
  credentials: z.array(credentialSchema),
  nextCursor: nextCursorSchema,
});
export type CredentialList = z.infer<typeof credentialListSchema>;
