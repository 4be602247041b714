import { useState } from 'react';
import { Button, Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { publicConfigQuery } from '../auth-queries.ts';

/**
 * One button per configured sign-in provider, Google first. Nothing at all when none is
 * configured (or the config cannot be read: email sign-in still works then).
 */
export function SocialSignIn({
  callbackURL,
  onError,
}: {
  callbackURL: string;
  onError: (message: string) => void;
}) {
  const { data } = useQuery(publicConfigQuery());
  const [pending, setPending] = useState<string | null>(null);
  const providers = [...(data?.providers ?? [])].sort(
    (a, b) => Number(b.id === 'google') - Number(a.id === 'google'),
  );
  if (providers.length === 0) return null;

  async function signIn(provider: string) {
    setPending(provider);
    // A refusal (not on the staff list, an unverified email, a tampered answer) comes back to
    // the sign-in screen with ?error=CODE, which it explains.
    const { error } = await authClient.signIn.social({
      provider,
      callbackURL,
      errorCallbackURL: '/sign-in',
    });
    // On success the browser is already on its way to the provider.
    if (error) {
      setPending(null);
      onError(authErrorMessage(error));
    }
  }

  return (
    <Stack gap="sm">
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="default"
          fullWidth
          loading={pending === provider.id}
          onClick={() => void signIn(provider.id)}
        >
          {provider.id === 'google' ? 'Log in with Google' : `Log in with ${provider.name}`}
        </Button>
      ))}
      <Divider label="or" labelPosition="center" />
    </Stack>
  );
}
