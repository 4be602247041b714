import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  credentialSchema,
  type Credential,
  type CredentialCreate,
  type CredentialRotate,
} from '#shared/credentials.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';
import { credentialKeys, serverKeys } from '#client/lib/query-keys.ts';
import { credentialPath } from './credential-queries.ts';

/** After a write: the vault, and the servers that show a credential's name. */
async function refreshAfter(queryClient: QueryClient, credential: Credential) {
  queryClient.setQueryData(credentialKeys.detail(credential.id), credential);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: credentialKeys.all }),
    queryClient.invalidateQueries({ queryKey: serverKeys.all }),
  ]);
}

export function useCreateCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CredentialCreate) =>
      apiRequest('/api/credentials', credentialSchema, { method: 'POST', body: input }),
    onSuccess: (credential) => refreshAfter(queryClient, credential),
  });
}

export function useRenameCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name, version }: { id: string; name: string; version: number }) =>
      apiRequest(credentialPath(id), credentialSchema, {
        method: 'PUT',
        body: { name, version },
      }),
    onSuccess: (credential) => refreshAfter(queryClient, credential),
  });
}

export function useRotateCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CredentialRotate }) =>
      apiRequest(credentialPath(id, '/rotate'), credentialSchema, { method: 'POST', body: input }),
    onSuccess: (credential) => refreshAfter(queryClient, credential),
  });
}

export function useDeleteCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(credentialPath(id), { method: 'DELETE' }),
    // The list, not its own entry, which is left to expire: asked again it would be a 404.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialKeys.list() }),
  });
}
