import { useId, useState } from 'react';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { PasswordField } from '#client/components/password-field.tsx';
import { sessionsKey } from './api/sessions.ts';
import { passwordChangeSchema } from './profile-schemas.ts';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

/**
 * Settings → Password: a new one for the current one. Every other device is signed out (a
 * changed password is often a suspected one); this browser stays signed in with a new session.
 */
export function PasswordSection() {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { currentPassword: '', newPassword: '' },
    validate: schemaResolver(passwordChangeSchema, { sync: true }),
  });

  const submit = form.onSubmit(
    async ({ currentPassword, newPassword }) => {
      setProblem(null);
      const result = await authClient.changePassword({
        currentPassword,
        newPassword,
        revokeOtherSessions: true,
      });
      if (result.error) {
        if (result.error.code === 'INVALID_PASSWORD') {
          showFieldRefusal(form, formId, 'currentPassword', 'That is not your current password');
        } else if (result.error.code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') {
          setProblem(
            'You sign in through a provider, so this account has no password here to change.',
          );
        } else if (result.error.message?.startsWith('newPassword')) {
          showFieldRefusal(form, formId, 'newPassword', result.error.message);
        } else {
          setProblem(authErrorMessage(result.error));
        }
        return;
      }
      form.reset();
      await queryClient.invalidateQueries({ queryKey: sessionsKey });
      notifications.show({
        color: 'green',
        message: 'Password changed. Your other devices are signed out.',
      });
    },
    () => focusFirstError(formId),
  );

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="password-title">
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md" maw={420}>
          <Title order={2} size="h4" id="password-title">
            Password
          </Title>
          <Text size="sm" c="dimmed">
            Changing it signs you out on every other device.
          </Text>
          <FormErrorAlert title="The password was not changed" message={problem} />
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
          <PasswordField
            label="New password"
            description="At least 8 characters."
            autoComplete="new-password"
            required
            {...form.getInputProps('newPassword')}
          />
          <div>
            <Button type="submit" loading={form.submitting}>
              Change password
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
