import { useEffect, useId, useRef, useState } from 'react';
import { useIsMounted } from '#client/lib/is-mounted.ts';
import { FormModal } from '#client/components/form-modal.tsx';
import { Checkbox, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { Server } from '#shared/servers.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { clientsQuery } from '#client/lib/client-list-query.ts';
import { credentialsQuery } from '#client/lib/credential-list-query.ts';
import { serverQuery } from '#client/lib/server-queries.ts';
import { useSavedVersion } from '#client/lib/saved-version.ts';
import { LoadSavedVersion } from '#client/components/load-saved-version.tsx';
import { useSaveServer } from '../api/server-mutations.ts';
import {
  emptyServerFormValues,
  formValuesToInput,
  serverToFormValues,
  toFormErrors,
  validateServerForm,
  type ServerFormValues,
} from '../server-form-values.ts';
import { clientLabel, DEFAULT_SERVER_PORT } from '#shared/clients.ts';
import { FormActions } from '#client/components/form-actions.tsx';
import { focusFirstError, showFormFailure } from '#client/lib/form-errors.ts';
import { FixedClientField } from '#client/components/fixed-client-field.tsx';

const KIND_NAMES = { 'ssh-key': 'SSH key', password: 'password', token: 'token' } as const;

/**
 * Add or edit a server in a dialog. `server` set: edit it at the version it was opened or loaded
 * since; `client` set: add one to that client (no client picker).
 */
export function ServerFormModal({
  opened,
  onClose,
  server,
  client,
  onSaved,
}: {
  opened: boolean;
  onClose: () => void;
  server?: Server;
  client?: Server['client'];
  onSaved?: (server: Server) => void;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title={server ? 'Edit server' : 'Add server'}>
      <ServerForm
        server={server}
        client={client}
        onCancel={onClose}
        onSaved={(saved) => {
          onClose();
          onSaved?.(saved);
        }}
      />
    </FormModal>
  );
}

function ServerForm({
  server,
  client,
  onSaved,
  onCancel,
}: {
  server?: Server | undefined;
  client?: Server['client'] | undefined;
  onSaved: (server: Server) => void;
  onCancel: () => void;
}) {
  const save = useSaveServer();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const isMounted = useIsMounted();
  const form = useForm<ServerFormValues>({
    initialValues: server ? serverToFormValues(server) : emptyServerFormValues(client?.id),
    validate: validateServerForm,
  });
  const clientPicked = Boolean(server ?? client);
  const clients = useQuery({ ...clientsQuery(), enabled: !clientPicked });
  const credentials = useQuery(credentialsQuery());
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);
  const saved = useSavedVersion(server, form, {
    toValues: serverToFormValues,
    query: serverQuery,
    setProblem,
    focus: () => firstRef.current?.focus(),
  });

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      const { clientId, ...fields } = formValuesToInput(values);
      try {
        const stored = await saved.save((base) =>
          save.mutateAsync(
            base
              ? { kind: 'update', id: base.id, version: base.version, input: fields }
              : { kind: 'create', input: { clientId, ...fields } },
          ),
        );
        notifications.show({ color: 'green', message: 'Server saved.' });
        if (isMounted()) onSaved(stored);
      } catch (error) {
        showFormFailure(error, { formId, form, setProblem, place: toFormErrors });
      }
    },
    () => focusFirstError(formId),
  );

  const credentialOptions = [
    { value: '', label: 'None' },
    ...(credentials.data ?? []).map((credential) => ({
      value: credential.id,
      label: `${credential.name} (${KIND_NAMES[credential.kind]})`,
    })),
  ];
  // An attached credential is named even before the vault has loaded.
  if (server?.credential && !credentialOptions.some((o) => o.value === server.credential?.id)) {
    credentialOptions.push({ value: server.credential.id, label: server.credential.name });
  }
  const owner = server?.client ?? client;

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormErrorAlert
          title="The server was not saved"
          message={problem}
          style={{ whiteSpace: 'pre-line' }}
        >
          <LoadSavedVersion of={saved} />
        </FormErrorAlert>
        {owner ? (
          <FixedClientField label={clientLabel(owner)} error={form.errors.clientId} />
        ) : (
          <Select
            label="Client"
            placeholder={clients.isPending ? 'Loading clients…' : 'Choose a client'}
            searchable
            limit={50}
            nothingFoundMessage="No client matches"
            // Focus comes here for an error too: the list opens on a click or typing, not then.
            openOnFocus={false}
            data={(clients.data ?? []).map((c) => ({
              value: c.id,
              label: c.code ? `${c.name} (${c.code})` : c.name || c.id,
            }))}
            ref={firstRef}
            {...form.getInputProps('clientId')}
            onChange={(value) => form.setFieldValue('clientId', value ?? '')}
          />
        )}
        <TextInput
          label="Label"
          placeholder="production"
          autoComplete="off"
          {...(owner ? { ref: firstRef } : {})}
          {...form.getInputProps('label')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput label="Host" autoComplete="off" {...form.getInputProps('host')} />
          <NumberInput
            label="Port"
            // Left empty, the port is the default: the field says which.
            placeholder={String(DEFAULT_SERVER_PORT)}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            hideControls
            {...form.getInputProps('port')}
          />
          <TextInput label="Username" autoComplete="off" {...form.getInputProps('username')} />
          <TextInput label="uiDir" autoComplete="off" {...form.getInputProps('uiDir')} />
        </SimpleGrid>
        <Select
          label="Credential"
          description="What a check (and later a deploy) signs in with, from the vault."
          data={credentialOptions}
          allowDeselect={false}
          {...form.getInputProps('credentialId')}
          onChange={(value) => form.setFieldValue('credentialId', value ?? '')}
        />
        <Checkbox label="Private" {...form.getInputProps('private', { type: 'checkbox' })} />
        <FormActions onCancel={onCancel} saving={form.submitting} />
      </Stack>
    </form>
  );
}
