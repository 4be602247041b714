import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { auditPageSchema, peopleListSchema } from '#shared/people-admin.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { peopleKeys } from '#client/lib/query-keys.ts';

export function peopleQuery() {
  return queryOptions({
    queryKey: peopleKeys.list(),
    queryFn: ({ signal }) => apiRequest('/api/people', peopleListSchema, { signal }),
  });
}

export interface AuditFilter {
  kind?: string;
  actor?: string;
  person?: string;
}

/** The audit trail, newest first; each further page is older (`before` the last one's seq). */
export function auditQuery(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: peopleKeys.audit(filter),
    queryFn: ({ signal, pageParam }) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(filter)) {
        if (value) params.set(name, value);
      }
      if (pageParam !== null) params.set('before', String(pageParam));
      const query = params.toString();
      return apiRequest(`/api/audit${query ? `?${query}` : ''}`, auditPageSchema, { signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next,
  });
}
