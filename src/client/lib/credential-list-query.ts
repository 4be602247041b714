import { queryOptions } from '@tanstack/react-query';
import { credentialListSchema } from '#shared/credentials.ts';
import { apiRequest } from './api-client.ts';
import { credentialKeys } from './query-keys.ts';

/** The vault's credentials, never a secret: its page, and the servers' credential picker. */
export function credentialsQuery() {
  return queryOptions({
    queryKey: credentialKeys.list(),
    queryFn: ({ signal }) => apiRequest('/api/credentials', credentialListSchema, { signal }),
    select: (data) => data.credentials,
  });
}
