import { queryOptions } from '@tanstack/react-query';
import { appListSchema, appSchema, runListSchema, runSchema, type RunState } from '#shared/apps.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { appKeys, runKeys } from '#client/lib/query-keys.ts';

export interface AppFilter {
  clientId?: string;
  state?: RunState;
  q?: string;
}

export const appApiPath = (id: string, action = '') =>
  `/api/apps/${encodeURIComponent(id)}${action}`;
export const runApiPath = (id: string, action = '') =>
  `/api/runs/${encodeURIComponent(id)}${action}`;

/** Every app the person can see, or those the filter keeps (the API filters, not the page). */
export function appsQuery(filter: AppFilter = {}) {
  const params = new URLSearchParams();
  if (filter.clientId) params.set('clientId', filter.clientId);
  if (filter.state) params.set('state', filter.state);
  if (filter.q) params.set('q', filter.q);
  const search = params.toString();
  return queryOptions({
    queryKey: appKeys.list(filter),
    queryFn: ({ signal }) =>
      apiRequest(`/api/apps${search ? `?${search}` : ''}`, appListSchema, { signal }),
    select: (data) => data.apps,
  });
}

export function appQuery(id: string) {
  return queryOptions({
    queryKey: appKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(appApiPath(id), appSchema, { signal }),
  });
}

/** An app's runs, newest first: the last RUNS_KEPT_PER_APP, so one page holds them all. */
export function appRunsQuery(id: string) {
  return queryOptions({
    queryKey: appKeys.runs(id),
    queryFn: ({ signal }) => apiRequest(appApiPath(id, '/runs'), runListSchema, { signal }),
    select: (data) => data.runs,
  });
}

export function runQuery(id: string) {
  return queryOptions({
    queryKey: runKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(runApiPath(id), runSchema, { signal }),
  });
}
