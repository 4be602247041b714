import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { meKey } from '#client/lib/session.ts';

export interface PasskeyRow {
  id: string;
  name: string | null;
  createdAt: string;
}

const passkeysKey = ['passkeys'] as const;

/** A Better Auth call's failure as an Error with the sentence to show. */
function failed(error: { status: number; message?: string | undefined }): Error {
  return new Error(authErrorMessage(error));
}

export function passkeysQuery() {
  return queryOptions({
    queryKey: passkeysKey,
    queryFn: async (): Promise<PasskeyRow[]> => {
      const { data, error } = await authClient.passkey.listUserPasskeys();
      if (error) throw failed(error);
      return data.map((p) => ({
        id: p.id,
        name: p.name ?? null,
        createdAt: new Date(p.createdAt).toISOString(),
      }));
    },
  });
}

/** Changes to the list also change whether REQUIRE_2FA still asks for a factor (/api/me). */
function useAfterChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: passkeysKey }),
      queryClient.invalidateQueries({ queryKey: meKey }),
    ]);
}

export function useAddPasskey() {
  const onSuccess = useAfterChange();
  return useMutation({
    mutationFn: async (name: string) => {
      const result = await authClient.passkey.addPasskey({ name });
      if (result?.error) throw failed(result.error);
    },
    onSuccess,
  });
}

export function useRenamePasskey() {
  const onSuccess = useAfterChange();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => {
      const { error } = await authClient.passkey.updatePasskey({ id, name });
      if (error) throw failed(error);
    },
    onSuccess,
  });
}

export function useRemovePasskey() {
  const onSuccess = useAfterChange();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error } = await authClient.passkey.deletePasskey({ id });
      if (error) throw failed(error);
    },
    onSuccess,
  });
}
