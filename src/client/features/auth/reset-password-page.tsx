import { useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { forgetSession } from '#client/lib/session.ts';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { AuthLayout } from './components/auth-layout.tsx';
import { NewPasswordField } from './components/new-password-field.tsx';
import { newPasswordSchema } from './auth-schemas.ts';
import { focusFirstError } from '#client/lib/form-errors.ts';

export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const linkError = searchParams.get('error');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { newPassword: '' },
    validate: schemaResolver(newPasswordSchema, { sync: true }),
  });

  if (!token || linkError) {
    return (
      <AuthLayout title="Choose a new password">
        <Alert color="red" title="This reset link does not work" role="alert">
          {linkError === 'INVALID_TOKEN'
            ? 'The link is invalid or has expired. Reset links work once and only for a limited time.'
            : 'The link is incomplete. Open the link from the email again, or request a new one.'}
        </Alert>
        <Button component={Link} to="/forgot-password" fullWidth>
          Request a new link
        </Button>
        <Anchor component={Link} to="/sign-in" ta="center" size="sm">
          Back to sign in
        </Anchor>
      </AuthLayout>
    );
  }

  const submit = form.onSubmit(
    async ({ newPassword }) => {
      setError(null);
      const result = await authClient.resetPassword({ newPassword, token });
      if (result.error) {
        setError(
          result.error.code === 'INVALID_TOKEN'
            ? 'This reset link is invalid or has expired. Request a new one.'
            : authErrorMessage(result.error),
        );
        return;
      }
      // The reset ended every session, this browser's included.
      forgetSession(queryClient);
      notifications.show({
        color: 'green',
        message: 'Your password was changed. Sign in with it.',
      });
      await navigate('/sign-in', { replace: true });
    },
    () => focusFirstError(formId),
  );

  return (
    <AuthLayout title="Choose a new password">
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            You will be signed out everywhere and can then sign in with the new password.
          </Text>
          <FormErrorAlert title="Could not change the password" message={error}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              Request a new link
            </Anchor>
          </FormErrorAlert>
          <NewPasswordField label="New password" {...form.getInputProps('newPassword')} />
          <Button type="submit" fullWidth loading={form.submitting}>
            Save new password
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
