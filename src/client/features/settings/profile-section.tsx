import { useId, useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Role } from '#shared/people.ts';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { authFieldError } from '#client/lib/auth-field-error.ts';
import { meKey, useMe } from '#client/lib/session.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { VisibleText } from '#client/components/visible-text.tsx';
import { displayNameSchema } from './profile-schemas.ts';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

/** What each role may do, in a sentence a person reads about themselves. */
const ROLE_TEXT: Record<Role, { name: string; may: string }> = {
  admin: {
    name: 'Administrator',
    may: 'You may do everything, including managing people and the settings of this installation.',
  },
  editor: {
    name: 'Editor',
    may: 'You may add, change and delete clients, servers and credentials, and reveal their secrets.',
  },
  viewer: {
    name: 'Viewer',
    may: 'You may read clients, servers and their history and copy the SSH command; secrets and changes are not yours to reach.',
  },
};

/** Settings → Profile: one's display name (editable), role and tag limit (read only). */
export function ProfileSection() {
  const me = useMe();
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="profile-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="profile-title">
          Profile
        </Title>
        <DisplayNameForm current={me.displayName ?? ''} />
        <Stack gap={4}>
          <Group gap="xs">
            <Text size="sm" fw={500}>
              Role:
            </Text>
            <Badge variant="light" style={{ textTransform: 'none' }}>
              {ROLE_TEXT[me.role].name}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {ROLE_TEXT[me.role].may}
          </Text>
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Clients you can reach:
          </Text>
          {me.tags === null ? (
            <Text size="sm" c="dimmed">
              Every client.
            </Text>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                Only clients with at least one of these tags:
              </Text>
              <Group gap={6}>
                {me.tags.map((tag) => (
                  <Badge key={tag} variant="outline" style={{ textTransform: 'none' }}>
                    <VisibleText text={tag} />
                  </Badge>
                ))}
              </Group>
            </>
          )}
          <Text size="xs" c="dimmed">
            An administrator sets your role and the clients you can reach.
          </Text>
        </Stack>
      </Stack>
    </Paper>
  );
}

function DisplayNameForm({ current }: { current: string }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { name: current },
    validate: schemaResolver(displayNameSchema, { sync: true }),
  });

  const submit = form.onSubmit(
    async ({ name }) => {
      setProblem(null);
      const result = await authClient.updateUser({ name: name.trim() });
      if (result.error) {
        // The server's own refusal of the name ("name: Must be at most …") goes by the field.
        const refused = authFieldError(result.error.message, ['name']);
        if (refused) showFieldRefusal(form, formId, refused.field, refused.message);
        else setProblem(authErrorMessage(result.error));
        return;
      }
      await queryClient.invalidateQueries({ queryKey: meKey });
      form.resetDirty({ name: name.trim() });
      notifications.show({ color: 'green', message: 'Display name saved.' });
    },
    () => focusFirstError(formId),
  );

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="sm">
        <FormErrorAlert title="The name was not saved" message={problem} />
        <TextInput
          label="Display name"
          description="Shown in the top bar, in People and as an issue's assignee. History and issues name you by your email address."
          autoComplete="name"
          maw={420}
          {...form.getInputProps('name')}
        />
        <div>
          <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
            Save name
          </Button>
        </div>
      </Stack>
    </form>
  );
}
