import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  invitationSchema,
  personSchema,
  type InvitationInput,
  type PersonPatch,
} from '#shared/people-admin.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';
import { peopleKeys } from '#client/lib/query-keys.ts';
import { meKey } from '#client/lib/session.ts';

const personPath = (id: string, action = '') => `/api/people/${encodeURIComponent(id)}${action}`;

/** After any change: the list and the trail (the live feed says so too, a moment later). */
function usePeopleMutation<V, R>(request: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
        // An administrator may change their own role.
        queryClient.invalidateQueries({ queryKey: meKey }),
      ]);
    },
  });
}

export function useUpdatePerson() {
  return usePeopleMutation(({ id, patch }: { id: string; patch: PersonPatch }) =>
    apiRequest(personPath(id), personSchema, { method: 'PATCH', body: patch }),
  );
}

export function useSignOutPerson() {
  return usePeopleMutation((id: string) =>
    apiRequest(personPath(id, '/sign-out'), personSchema, { method: 'POST' }),
  );
}

export function useResetSecondFactor() {
  return usePeopleMutation((id: string) =>
    apiRequest(personPath(id, '/reset-second-factor'), personSchema, { method: 'POST' }),
  );
}

export function useInvite() {
  return usePeopleMutation((input: InvitationInput) =>
    apiRequest('/api/people/invitations', invitationSchema, { method: 'POST', body: input }),
  );
}

export function useRevokeInvitation() {
  return usePeopleMutation((id: string) =>
    apiSend(`/api/people/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}
