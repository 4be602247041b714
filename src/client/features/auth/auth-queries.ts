import { queryOptions } from '@tanstack/react-query';
import { publicConfigSchema } from '#shared/account.ts';
import { apiRequest } from '#client/lib/api-client.ts';

export function publicConfigQuery() {
  return queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => apiRequest('/api/config', publicConfigSchema, { signal }),
    staleTime: Infinity,
  });
}
