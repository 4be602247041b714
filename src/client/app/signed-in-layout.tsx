import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { SignedInShell } from '#client/components/app-shell.tsx';
import { startLiveUpdates } from '#client/lib/live-updates.ts';
import { RequireAuth } from './require-auth.tsx';

/** Every signed-in route: the guard, the live feed while signed in, and the shell. */
export function SignedInLayout() {
  return (
    <RequireAuth>
      <LiveUpdates />
      <SignedInShell>
        <Outlet />
      </SignedInShell>
    </RequireAuth>
  );
}

function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => startLiveUpdates(queryClient), [queryClient]);
  return null;
}
