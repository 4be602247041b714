import { useCallback } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
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

/** Saves the choice on the user: null when saved, else why not. */
async function saveListView(listView: ListView): Promise<string | null> {
  // Better Auth's client (with its passkey plugin) loads on the first change, not with the list.
  const { authClient, authErrorMessage } = await import('#client/lib/auth-client.ts');
  const { error } = await authClient.updateUser({ listView });
  return error ? authErrorMessage(error) : null;
}

/**
 * The list or the table, as each person last chose: kept on their user (Better Auth's
 * `updateUser`, a field of its own, validated on the server), so another browser of theirs
 * opens on the same view. Shown at once and saved behind; a failed save goes back and says so.
 */
export function useListView(): ListViewControl {
  const { listView } = useMe();
  const queryClient = useQueryClient();
  const phone = useMediaQuery(PHONE) ?? false;
  const setView = useCallback(
    (next: ListView) => {
      const before = listView;
      queryClient.setQueryData<Session>(meKey, (s) => withListView(s, next));
      void saveListView(next)
        .catch(errorMessage)
        .then((problem) => {
          if (problem === null) return;
          queryClient.setQueryData<Session>(meKey, (s) => withListView(s, before));
          notifications.show({ color: 'red', title: 'The view was not saved', message: problem });
        });
    },
    [listView, queryClient],
  );
  return { view: phone ? 'list' : listView, choosable: !phone, setView };
}
