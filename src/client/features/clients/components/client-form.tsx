import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { Client } from '#shared/clients.ts';
import { errorMessage, isApiError } from '#client/lib/api-client.ts';
import { todayIsoDate } from '#client/lib/format-date.ts';
import { PasswordField } from '#client/components/password-field.tsx';
import { useSaveClient } from '../api/client-mutations.ts';
import {
  clientToFormValues,
  emptyClientFormValues,
  formValuesToInput,
  toFormErrors,
  validateClientForm,
  type ClientFormValues,
} from '../client-form-values.ts';

/** `client` set: edit that client (at the version it was opened); unset: add a new one. */
export function ClientForm({
  client,
  onSaved,
  onCancel,
}: {
  client?: Client;
  onSaved: (client: Client) => void;
  onCancel: () => void;
}) {
  const save = useSaveClient();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ClientFormValues>({
    initialValues: client ? clientToFormValues(client) : emptyClientFormValues(todayIsoDate()),
    validate: validateClientForm,
  });
  const keepsPassword = client?.server.hasPassword ?? false;

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    const input = formValuesToInput(values);
    try {
      const saved = await save.mutateAsync(
        client
          ? { kind: 'update', id: client.id, version: client.version, input }
          : { kind: 'create', input },
      );
      notifications.show({ color: 'green', message: 'Client Saved!' });
      onSaved(saved);
    } catch (error) {
      if (isApiError(error, 400) && Object.keys(error.fields).length > 0) {
        const { errors, unplaced } = toFormErrors(error.fields, values);
        form.setErrors(errors);
        setProblem(unplaced.length > 0 ? unplaced.join('\n') : null);
        return;
      }
      setProblem(errorMessage(error));
    }
  });

  return (
    <Paper withBorder p="lg" radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3">
            {client ? 'Edit Client' : 'Add Client'}
          </Title>
          {problem && (
            <Alert
              color="red"
              title="The client was not saved"
              role="alert"
              style={{ whiteSpace: 'pre-line' }}
            >
              {problem}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
            <TextInput label="Code" {...form.getInputProps('code')} />
          </SimpleGrid>
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxRows={8}
            {...form.getInputProps('description')}
          />
          <TextInput
            label="Tags"
            description="Comma-separated. The first tag selects the deploy server."
            {...form.getInputProps('tags')}
          />
          <TextInput
            label="Start date"
            type="date"
            maw={220}
            {...form.getInputProps('startDate')}
          />

          <Fieldset legend="Server details">
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                <TextInput label="Host" autoComplete="off" {...form.getInputProps('server.host')} />
                <NumberInput
                  label="Port"
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  hideControls
                  {...form.getInputProps('server.port')}
                />
                <TextInput
                  label="Username"
                  autoComplete="off"
                  {...form.getInputProps('server.username')}
                />
                <PasswordField
                  label="Password"
                  autoComplete="new-password"
                  placeholder={keepsPassword ? 'Unchanged' : undefined}
                  description={
                    keepsPassword ? 'Leave empty to keep the stored password.' : undefined
                  }
                  {...form.getInputProps('server.password')}
                />
              </SimpleGrid>
              <TextInput label="uiDir" autoComplete="off" {...form.getInputProps('server.uiDir')} />
              <Checkbox
                label="Private"
                {...form.getInputProps('server.private', { type: 'checkbox' })}
              />
            </Stack>
          </Fieldset>

          <Textarea
            label="Domains"
            description="One http:// or https:// URL per line."
            autosize
            minRows={2}
            maxRows={10}
            styles={{ error: { whiteSpace: 'pre-line' } }}
            {...form.getInputProps('domains')}
          />

          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={form.submitting}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
