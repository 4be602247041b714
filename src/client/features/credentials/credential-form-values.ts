import type { CredentialKind } from '#shared/servers.ts';
import { MIN_SECRET_LENGTH, SHORT_SECRET_MESSAGE } from '#shared/secret-length.ts';
import { placeFieldErrors, type PlacedErrors } from '#client/lib/form-errors.ts';

export const KIND_LABELS: Record<CredentialKind, string> = {
  'ssh-key': 'SSH key',
  password: 'Password',
  token: 'Token',
};

/** The secret's fields as the new-credential and rotate forms hold them. */
export interface SecretFormValues {
  /** An SSH key: made in the server, or pasted. */
  keySource: 'generate' | 'paste';
  keyType: 'ed25519' | 'rsa';
  privateKey: string;
  passphrase: string;
  /** A password or a token. */
  secret: string;
}

export interface CredentialFormValues extends SecretFormValues {
  name: string;
  kind: CredentialKind;
}

export const emptySecretValues: SecretFormValues = {
  keySource: 'generate',
  keyType: 'ed25519',
  privateKey: '',
  passphrase: '',
  secret: '',
};

export interface SecretInput {
  generate?: 'ed25519' | 'rsa';
  privateKey?: string;
  passphrase?: string;
  secret?: string;
}

/** The request's secret fields: only those of the kind and choice made, none left empty. */
export function secretInput(kind: CredentialKind, values: SecretFormValues): SecretInput {
  if (kind !== 'ssh-key') return { secret: values.secret };
  if (values.keySource === 'generate') return { generate: values.keyType };
  return {
    privateKey: values.privateKey,
    ...(values.passphrase === '' ? {} : { passphrase: values.passphrase }),
  };
}

/** The form field a request field's error belongs to. */
const FIELD_OF: Record<string, string> = {
  name: 'name',
  kind: 'kind',
  generate: 'keyType',
  privateKey: 'privateKey',
  passphrase: 'passphrase',
  secret: 'secret',
};

export function toFormErrors(fields: Record<string, string>): PlacedErrors {
  return placeFieldErrors(fields, (path) =>
    Object.hasOwn(FIELD_OF, path) ? FIELD_OF[path] : undefined,
  );
}

/** The messages a form can give before asking the server (which reads the key itself). */
export function validateSecret(kind: CredentialKind, values: SecretFormValues) {
  const errors: Record<string, string> = {};
  if (kind === 'ssh-key') {
    if (values.keySource === 'paste' && values.privateKey.trim() === '') {
      errors.privateKey = 'Paste a private key';
    }
  } else if (values.secret === '') {
    errors.secret = 'Enter the secret';
  } else if (values.secret.length < MIN_SECRET_LENGTH) {
    errors.secret = SHORT_SECRET_MESSAGE;
  }
  return errors;
}
