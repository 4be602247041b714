import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { AuthLayout } from './components/auth-layout.tsx';
import { EmailField } from './components/email-field.tsx';
import { emailOnlySchema } from './auth-schemas.ts';
import { focusFirstError } from '#client/lib/form-errors.ts';

const SENT_MESSAGE = 'Password reset email sent, check your inbox.';

export function ForgotPasswordPage() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const formId = useId();
  const form = useForm({
    initialValues: { email: '' },
    validate: schemaResolver(emailOnlySchema, { sync: true }),
  });

  const submit = form.onSubmit(
    async ({ email }) => {
      setError(null);
      setSent(false);
      const result = await authClient.requestPasswordReset({
        email: email.trim(),
        redirectTo: '/reset-password',
      });
      if (result.error) {
        setError(authErrorMessage(result.error));
        return;
      }
      // Said once, in the form where the person is looking: no notification repeating it.
      setSent(true);
    },
    () => focusFirstError(formId),
  );

  return (
    <AuthLayout title="Reset your password">
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Enter the email address of your account and we will send you a link to choose a new
            password.
          </Text>
          <FormErrorAlert title="Could not send the link" message={error} />
          {sent && (
            <Alert color="green" role="status">
              {SENT_MESSAGE}
            </Alert>
          )}
          <EmailField required {...form.getInputProps('email')} />
          <Button type="submit" fullWidth loading={form.submitting}>
            Send reset link
          </Button>
          <Anchor component={Link} to="/sign-in" ta="center" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
