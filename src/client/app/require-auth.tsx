import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Center, Container } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MeContext, SECOND_FACTOR_SET_UP_PATH, forgetReads, meQuery } from '#client/lib/session.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { FullPageLoader } from '#client/components/full-page-loader.tsx';

/**
 * Lets only signed-in, verified users through. The server enforces the same on every API
 * call; this only decides which screen to show.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useQuery(meQuery());
  const location = useLocation();
  const queryClient = useQueryClient();
  const ended = session.data !== undefined && session.data.status !== 'signed-in';
  useEffect(() => {
    if (ended) forgetReads(queryClient);
  }, [ended, queryClient]);

  if (session.isPending) return <FullPageLoader label="Checking your session" />;
  // A check that failed after one that answered (the server restarting behind its proxy)
  // keeps the page and what is typed in it: the session it knew stands until an answer says
  // otherwise, and the live stream's next reconnect checks again.
  if (session.isError && session.data === undefined) {
    return (
      <Center h="100dvh">
        <Container size="sm">
          <ErrorAlert
            title="Could not check your session"
            error={session.error}
            onRetry={() => void session.refetch()}
          />
        </Container>
      </Center>
    );
  }
  if (session.data.status === 'signed-out') {
    // A mailed link that failed lands on "/?error=…"; the sign-in screen explains it.
    const linkError = new URLSearchParams(location.search).get('error');
    const to = linkError ? `/sign-in?error=${encodeURIComponent(linkError)}` : '/sign-in';
    return <Navigate to={to} replace state={{ from: location }} />;
  }
  if (session.data.status === 'unverified') return <Navigate to="/verify-email-address" replace />;
  // The sign-in screen says why in its own words.
  if (session.data.status === 'refused') {
    return <Navigate to={`/sign-in?error=${session.data.code}`} replace />;
  }
  // REQUIRE_2FA: nothing else until a second factor is set up (the server refuses the rest).
  if (session.data.me.secondFactorRequired) {
    return <Navigate to={SECOND_FACTOR_SET_UP_PATH} replace />;
  }
  return <MeContext value={session.data.me}>{children}</MeContext>;
}
