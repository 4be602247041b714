import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { AuthLayout } from './components/auth-layout.tsx';
import { EmailField } from './components/email-field.tsx';
import { emailOnlySchema } from './auth-schemas.ts';

export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  // A session of an unverified user (not possible with passwords alone) still names the address.
  const session = authClient.useSession();
  const knownEmail = searchParams.get('email')?.trim() || session.data?.user.email || '';
  const [typedEmail, setTypedEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const email = knownEmail || typedEmail;

  async function resend() {
    const parsed = emailOnlySchema.safeParse({ email });
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'Enter a valid email address');
      return;
    }
    setSending(true);
    const { error } = await authClient.sendVerificationEmail({
      email: parsed.data.email,
      callbackURL: '/',
    });
    setSending(false);
    if (error) {
      notifications.show({ color: 'red', message: authErrorMessage(error) });
      return;
    }
    notifications.show({ color: 'green', message: 'Verification email sent.' });
  }

  return (
    <AuthLayout title="Verify your email address">
      <Stack gap="md">
        {knownEmail ? (
          <Text>{`We sent a verification link to ${knownEmail}. Open it to finish signing up.`}</Text>
        ) : (
          <>
            <Text>
              We sent a verification link to your email address. Open it to finish signing up.
            </Text>
            <EmailField
              value={typedEmail}
              error={inputError}
              onChange={(event) => {
                setTypedEmail(event.currentTarget.value);
                setInputError(null);
              }}
            />
          </>
        )}
        <Text size="sm" c="dimmed">
          No email after a few minutes? Check your spam folder, or send it again.
        </Text>
        <Button onClick={() => void resend()} loading={sending} fullWidth>
          Resend verification email
        </Button>
        <Anchor component={Link} to="/sign-in" ta="center" size="sm">
          Back to sign in
        </Anchor>
      </Stack>
    </AuthLayout>
  );
}
