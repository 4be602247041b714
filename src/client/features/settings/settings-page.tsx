import { useId, useState, type ReactNode } from 'react';
import { Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { accessTokenInputSchema } from '#shared/account.ts';
import { errorMessage, isApiError } from '#client/lib/api-client.ts';
import { useMe } from '#client/lib/session.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { PasswordField } from '#client/components/password-field.tsx';
import { useSaveAccessToken } from './api/access-token.ts';
import { SessionsSection } from './sessions-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { TokensSection } from './tokens-section.tsx';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';
import { usePageTitle } from '#client/components/page-title.ts';

/** The account's own sections; the app adds the sections other features bring (`children`). */
export function SettingsPage({ children }: { children?: ReactNode }) {
  usePageTitle('Settings');
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1} size="h2">
        Settings
      </Title>
      <AccountSection />
      <ProfileSection />
      <PasswordSection />
      <AccessTokenSection />
      <SessionsSection />
      <TokensSection />
      {children}
    </Stack>
  );
}

function AccountSection() {
  const me = useMe();
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Account
        </Title>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            Name:{' '}
          </Text>
          {me.displayName ?? 'Not set'}
        </Text>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            Email:{' '}
          </Text>
          {me.email}
        </Text>
      </Stack>
    </Paper>
  );
}

function AccessTokenSection() {
  const me = useMe();
  const save = useSaveAccessToken();
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { accessToken: '' },
    validate: (values) => {
      if (values.accessToken.trim() === '') return { accessToken: 'Enter the token to save' };
      const result = accessTokenInputSchema.safeParse(values);
      if (result.success) return {};
      return { accessToken: result.error.issues[0]?.message ?? 'Invalid token' };
    },
  });

  async function store(accessToken: string, done: string) {
    setProblem(null);
    try {
      await save.mutateAsync(accessToken);
      form.reset();
      notifications.show({ color: 'green', message: done });
    } catch (error) {
      const field = isApiError(error, 400) ? error.fields.accessToken : undefined;
      if (field) showFieldRefusal(form, formId, 'accessToken', field);
      else setProblem(errorMessage(error));
    }
  }

  const submit = form.onSubmit(
    ({ accessToken }) => store(accessToken.trim(), 'Access token saved.'),
    () => focusFirstError(formId),
  );

  return (
    <Paper withBorder p="lg" radius="md">
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            Deploy access token
          </Title>
          <Text size="sm" c="dimmed">
            Your personal token for the deploy tool. It is put into the deploy command shown for
            each client, so the command you copy runs as you. It is stored encrypted and shown here
            only masked.
          </Text>
          <Group gap="xs">
            <Text size="sm" fw={500}>
              Current token:
            </Text>
            {me.accessToken.isSet ? (
              <Code>{me.accessToken.masked ?? 'Set'}</Code>
            ) : (
              <Text size="sm" c="dimmed">
                Not set
              </Text>
            )}
          </Group>
          <FormErrorAlert title="The token was not saved" message={problem} />
          <PasswordField
            label="Access token"
            autoComplete="off"
            description={
              me.accessToken.isSet ? 'Saving a new token replaces the current one.' : undefined
            }
            {...form.getInputProps('accessToken')}
          />
          <Group gap="sm">
            <Button type="submit" loading={form.submitting}>
              Save token
            </Button>
            {me.accessToken.isSet && (
              <Button
                variant="default"
                color="red"
                onClick={() => void store('', 'Access token removed.')}
                disabled={save.isPending}
              >
                Remove token
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
