import { useState } from 'react';
import { Navigate } from 'react-router';
import { Button, Divider, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { authClient } from '#client/lib/auth-client.ts';
import { forgetSession, meKey, meQuery } from '#client/lib/session.ts';
import { FullPageLoader } from '#client/components/full-page-loader.tsx';
import { AuthLayout } from '#client/features/auth/components/auth-layout.tsx';
import { TotpSetUp } from '#client/features/second-factors/totp-set-up.tsx';
import { AddPasskey } from '#client/features/second-factors/passkeys-section.tsx';

/**
 * REQUIRE_2FA: where a person who signs in with a password and has no second factor is kept
 * until they set one up (the server refuses them everything else meanwhile). Signing out is the
 * only other way off it.
 */
export function SetUpSecondFactorRoute() {
  const session = useQuery(meQuery());
  const queryClient = useQueryClient();
  // Kept on screen until the backup codes are acknowledged, though /api/me may say done before.
  const [settingUp, setSettingUp] = useState(false);

  if (session.isPending) return <FullPageLoader label="Checking your session" />;
  if (session.data?.status !== 'signed-in') return <Navigate to="/sign-in" replace />;
  if (!session.data.me.secondFactorRequired && !settingUp) return <Navigate to="/" replace />;

  const finished = () => {
    setSettingUp(false);
    void queryClient.invalidateQueries({ queryKey: meKey });
  };

  async function signOut() {
    await authClient.signOut();
    forgetSession(queryClient);
  }

  return (
    <AuthLayout title="Set up two-factor sign-in">
      <Text size="sm">
        This installation asks everyone who signs in with a password for a second factor as well.
        Set one up to continue.
      </Text>
      <Stack gap="sm">
        <Title order={2} size="h5">
          Authenticator app
        </Title>
        <TotpSetUp onFinished={finished} onStarted={() => setSettingUp(true)} />
      </Stack>
      {!settingUp && (
        <>
          <Divider label="or" labelPosition="center" />
          <Stack gap="sm">
            <Title order={2} size="h5">
              Passkey
            </Title>
            <AddPasskey onAdded={finished} />
          </Stack>
        </>
      )}
      <Button variant="subtle" onClick={() => void signOut()}>
        Sign out
      </Button>
    </AuthLayout>
  );
}
