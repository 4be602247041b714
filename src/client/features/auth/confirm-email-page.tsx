import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { confirmEmailSchema } from '#shared/account.ts';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { PasswordField } from '#client/components/password-field.tsx';
import { AuthLayout } from './components/auth-layout.tsx';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

const passwordSchema = confirmEmailSchema.pick({ password: true });

/**
 * Where the sign-up mail's link leads. Opening it confirms nothing: whoever signed the address
 * up chose the password, so the person finishing the sign-up types it (the server checks it
 * with the link's token, src/server/auth/confirm-email.ts). Someone who never signed up learns
 * that someone else used their address, and how to take it back.
 */
export function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const [error, setError] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { password: '' },
    validate: schemaResolver(passwordSchema, { sync: true }),
  });

  if (!token || linkError) {
    return (
      <AuthLayout title="Confirm your email address">
        <Alert color="red" title="This link does not work" role="alert">
          {linkError ?? 'The link is incomplete. Open the link from the email again.'}
        </Alert>
        <Button component={Link} to="/sign-in" fullWidth>
          Sign in
        </Button>
      </AuthLayout>
    );
  }

  const submit = form.onSubmit(
    async ({ password }) => {
      setError(null);
      const { error: refused } = await authClient.$fetch('/confirm-email', {
        method: 'POST',
        body: { token, password },
      });
      if (!refused) {
        // A full load starts the signed-in app with nothing cached from before.
        window.location.assign('/');
        return;
      }
      const message = authErrorMessage(refused);
      // Better Auth's answer carries its code beside the message.
      const { code } = refused as { code?: string };
      if (code === 'NOT_THE_SIGN_UP_PASSWORD') showFieldRefusal(form, formId, 'password', message);
      else if (code === 'INVALID_TOKEN' || code === 'EMAIL_ALREADY_CONFIRMED')
        setLinkError(message);
      else setError(message);
    },
    () => focusFirstError(formId),
  );

  return (
    <AuthLayout title="Confirm your email address">
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">Type the password you chose when you signed up to finish.</Text>
          <FormErrorAlert title="Could not confirm the address" message={error} />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Button type="submit" fullWidth loading={form.submitting}>
            Confirm and sign in
          </Button>
          <Text size="sm" c="dimmed">
            Did not sign up? Then someone else used your address.{' '}
            <Anchor component={Link} to="/sign-up" size="sm">
              Sign up with it yourself
            </Anchor>{' '}
            and their account is replaced.
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
