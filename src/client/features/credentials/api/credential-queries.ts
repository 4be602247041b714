import { queryOptions } from '@tanstack/react-query';
import {
  credentialSchema,
  credentialSecretSchema,
  type CredentialSecret,
} from '#shared/credentials.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { credentialKeys } from '#client/lib/query-keys.ts';

const credentialPath = (id: string, action = '') =>
  `/api/credentials/${encodeURIComponent(id)}${action}`;

export function credentialQuery(id: string) {
  return queryOptions({
    queryKey: credentialKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(credentialPath(id), credentialSchema, { signal }),
  });
}

/**
 * Not a cached query on purpose: every read is recorded as revealed or copied, so it happens
 * only on an explicit click and is never refetched behind the user's back.
 */
export function fetchCredentialSecret(
  id: string,
  purpose: 'reveal' | 'copy',
): Promise<CredentialSecret> {
  return apiRequest(credentialPath(id, '/reveal'), credentialSecretSchema, {
    method: 'POST',
    body: { purpose },
  });
}

export { credentialPath };
