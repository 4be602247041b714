import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { ListView } from '#shared/account.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { meKey, useMe, type Session } from '#client/lib/session.ts';

/** Narrower than this the table's six columns do not fit: the list is shown instead. */
const PHONE = '(max-width: 47.99em)';

export interface ListViewControl {
  /** What is shown: the person's choice, or the list on a phone. */
  view: ListView;
  /** Whether the choice can be made here (not on a phone, where the list is always shown). */
  choosable: boolean;
  setView: (next: ListView) => void;
}

function withListView(session: Session | undefined, listView: ListView): Session | undefined {
  return session?.status === 'signed-in'
    ? { status: 'signed-in', me: { ...session.me, listView } }
    : session;
}

/** Saves the choice on the user; throws why not. */
async function saveListView(listView: ListView): Promise<void> {
  // Better Auth's client (with its passkey plugin) loads on the first change, not with the list.
  const { authClient, authErrorMessage } = await import('#client/lib/auth-client.ts');
  const { error } = await authClient.updateUser({ listView });
  if (error) throw new Error(authErrorMessage(error));
}

/**
 * The list or the table, as each person last chose: kept on their user (Better Auth's
 * `updateUser`, a field of its own, validated on the server), so another browser of theirs
 * opens on the same view. Shown at once from the save in flight, not written into the cached
 * user: a refetch of the user that began before the save landed (every query is refetched when
 * the live stream connects) would otherwise bring the old view back. A failed save goes back
 * and says so.
 */
export function useListView(): ListViewControl {
  const { listView } = useMe();
  const queryClient = useQueryClient();
  const phone = useMediaQuery(PHONE) ?? false;
  const save = useMutation({
    mutationFn: saveListView,
    onSuccess: async (_, saved) => {
      // A fetch of the user still in flight may have been read before this save.
      await queryClient.cancelQueries({ queryKey: meKey });
      queryClient.setQueryData<Session>(meKey, (s) => withListView(s, saved));
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'The view was not saved',
        message: errorMessage(error),
      });
    },
  });
  const chosen = save.isPending ? save.variables : listView;
  return { view: phone ? 'list' : chosen, choosable: !phone, setView: save.mutate };
}
