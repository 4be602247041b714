import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  appSchema,
  runSchema,
  type App,
  type AppCreate,
  type AppFields,
  type RunStart,
} from '#shared/apps.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';
import { appKeys, clientKeys, runKeys } from '#client/lib/query-keys.ts';
import { appApiPath, runApiPath } from './app-queries.ts';

export type SaveAppRequest =
  | { kind: 'create'; input: AppCreate }
  | { kind: 'update'; id: string; version: number; input: AppFields };

export function useSaveApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveAppRequest): Promise<App> =>
      request.kind === 'create'
        ? apiRequest('/api/apps', appSchema, { method: 'POST', body: request.input })
        : apiRequest(appApiPath(request.id), appSchema, {
            method: 'PUT',
            body: { ...request.input, version: request.version },
          }),
    onSuccess: async (app) => {
      queryClient.setQueryData(appKeys.detail(app.id), app);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: appKeys.list() }),
        queryClient.invalidateQueries({ queryKey: clientKeys.history(app.client.id) }),
      ]);
    },
  });
}

export function useDeleteApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (app: App) => apiSend(appApiPath(app.id), { method: 'DELETE' }),
    // Every list, not its own entry, which is left to expire: asked again it would be a 404.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.list() }),
  });
}

/**
 * Starts a deploy of the app as the person confirmed it (its version): 201 with the run, or 409
 * saying who runs it, that the app changed since, or why the server cannot.
 */
export function useStartRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...shown }: { id: string } & NonNullable<RunStart>) =>
      apiRequest(appApiPath(id, '/runs'), runSchema, {
        method: 'POST',
        body: shown satisfies RunStart,
      }),
    onSuccess: async (run) => {
      queryClient.setQueryData(runKeys.detail(run.id), run);
      await queryClient.invalidateQueries({ queryKey: appKeys.all });
    },
  });
}

/** Asks a run to stop; what it answers (the run, or nothing) is read again from its record. */
export function useCancelRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (run: { id: string; appId: string }) =>
      apiSend(runApiPath(run.id, '/cancel'), { method: 'POST' }),
    onSuccess: async (_, run) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: runKeys.detail(run.id) }),
        queryClient.invalidateQueries({ queryKey: appKeys.runs(run.appId) }),
      ]);
    },
  });
}
