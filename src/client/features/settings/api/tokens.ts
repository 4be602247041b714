import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiTokenListSchema, createdTokenSchema, type CreateTokenInput } from '#shared/tokens.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';

export const tokensKey = ['me', 'tokens'] as const;

export function tokensQuery() {
  return queryOptions({
    queryKey: tokensKey,
    queryFn: ({ signal }) => apiRequest('/api/me/tokens', apiTokenListSchema, { signal }),
  });
}

/** Makes a token; its answer holds the token itself, to show once and never store. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTokenInput) =>
      apiRequest('/api/me/tokens', createdTokenSchema, { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiSend(`/api/me/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
