import { Button } from '@mantine/core';
import { useState } from 'react';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';

/** "Sign in with a passkey": the browser offers this site's passkeys; no email needed. */
export function PasskeySignIn({
  onSignedIn,
  onError,
}: {
  onSignedIn: () => void;
  onError: (message: string | null) => void;
}) {
  const [pending, setPending] = useState(false);
  async function signIn() {
    onError(null);
    setPending(true);
    try {
      const result = await authClient.signIn.passkey();
      if (result?.error) {
        const code = 'code' in result.error ? result.error.code : undefined;
        onError(
          code === 'AUTH_CANCELLED' || code === 'ERROR_CEREMONY_ABORTED'
            ? 'The passkey sign-in was cancelled or no passkey was chosen.'
            : authErrorMessage(result.error),
        );
        return;
      }
      onSignedIn();
    } finally {
      setPending(false);
    }
  }
  return (
    <Button variant="default" fullWidth loading={pending} onClick={() => void signIn()}>
      Sign in with a passkey
    </Button>
  );
}
