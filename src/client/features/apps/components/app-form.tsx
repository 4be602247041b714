import { useEffect, useId, useRef, useState } from 'react';
import { useIsMounted } from '#client/lib/is-mounted.ts';
import { FormModal } from '#client/components/form-modal.tsx';
import { Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { App } from '#shared/apps.ts';
import { TEMPLATE_PLACEHOLDERS } from '#shared/deploy-template.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { DomainFields } from '#client/components/domain-fields.tsx';
import { clientsQuery } from '#client/lib/client-list-query.ts';
import { serversQuery } from '#client/lib/server-queries.ts';
import { useSavedVersion } from '#client/lib/saved-version.ts';
import { LoadSavedVersion } from '#client/components/load-saved-version.tsx';
import { useSaveApp } from '../api/app-mutations.ts';
import { appQuery } from '../api/app-queries.ts';
import {
  appToFormValues,
  emptyAppFormValues,
  formValuesToInput,
  toFormErrors,
  validateAppForm,
  type AppFormValues,
} from '../app-form-values.ts';
import { clientLabel } from '#shared/clients.ts';
import { FormActions } from '#client/components/form-actions.tsx';
import { focusFirstError, showFormFailure } from '#client/lib/form-errors.ts';
import { FixedClientField } from '#client/components/fixed-client-field.tsx';

const PLACEHOLDER_LIST = TEMPLATE_PLACEHOLDERS.map((name) => `{${name}}`).join(' ');

/**
 * Add or edit an app in a dialog. `app` set: edit it at the version it was opened or loaded
 * since; `client` set: add one to that client (no client picker).
 */
export function AppFormModal({
  opened,
  onClose,
  app,
  client,
  onSaved,
}: {
  opened: boolean;
  onClose: () => void;
  app?: App;
  client?: App['client'];
  onSaved?: (app: App) => void;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title={app ? 'Edit app' : 'Add app'}>
      <AppForm
        app={app}
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

function AppForm({
  app,
  client,
  onSaved,
  onCancel,
}: {
  app?: App | undefined;
  client?: App['client'] | undefined;
  onSaved: (app: App) => void;
  onCancel: () => void;
}) {
  const save = useSaveApp();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const isMounted = useIsMounted();
  const form = useForm<AppFormValues>({
    initialValues: app ? appToFormValues(app) : emptyAppFormValues(client?.id),
    validate: validateAppForm,
  });
  const owner = app?.client ?? client;
  const clients = useQuery({ ...clientsQuery(), enabled: !owner });
  const clientId = form.values.clientId;
  const servers = useQuery({ ...serversQuery({ clientId }), enabled: clientId !== '' });
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);
  const saved = useSavedVersion(app, form, {
    toValues: appToFormValues,
    query: appQuery,
    setProblem,
    focus: () => firstRef.current?.focus(),
  });

  // A new app on a client with one server runs there: nothing to choose.
  const onlyServer = servers.data?.length === 1 ? servers.data[0] : undefined;
  useEffect(() => {
    if (!app && onlyServer && form.values.serverId === '') {
      form.setFieldValue('serverId', onlyServer.id);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the servers arrive
  }, [onlyServer?.id]);

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      const { clientId: chosenClient, ...fields } = formValuesToInput(values);
      try {
        const stored = await saved.save((base) =>
          save.mutateAsync(
            base
              ? { kind: 'update', id: base.id, version: base.version, input: fields }
              : { kind: 'create', input: { clientId: chosenClient, ...fields } },
          ),
        );
        notifications.show({ color: 'green', message: 'App saved.' });
        if (isMounted()) onSaved(stored);
      } catch (error) {
        showFormFailure(error, { formId, form, setProblem, place: toFormErrors });
      }
    },
    () => focusFirstError(formId),
  );

  const serverOptions = (servers.data ?? []).map((server) => ({
    value: server.id,
    label: `${server.label} (${server.host || 'no host'})`,
  }));
  // The app's server is named even before the client's servers have loaded.
  if (app?.server && !serverOptions.some((option) => option.value === app.server?.id)) {
    serverOptions.push({ value: app.server.id, label: app.server.label });
  }
  const chosenServer = servers.data?.find((server) => server.id === form.values.serverId);

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormErrorAlert
          title="The app was not saved"
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
            openOnFocus={false}
            data={(clients.data ?? []).map((c) => ({
              value: c.id,
              label: clientLabel(c),
            }))}
            ref={firstRef}
            {...form.getInputProps('clientId')}
            onChange={(value) => {
              form.setFieldValue('clientId', value ?? '');
              form.setFieldValue('serverId', '');
            }}
          />
        )}
        <TextInput
          label="Name"
          autoComplete="off"
          {...(owner ? { ref: firstRef } : {})}
          {...form.getInputProps('name')}
        />
        <Select
          label="Server"
          description="The server it runs on, one of the client's."
          placeholder={
            clientId === ''
              ? 'Choose the client first'
              : servers.isPending
                ? 'Loading servers…'
                : 'Choose a server'
          }
          data={serverOptions}
          disabled={clientId === ''}
          allowDeselect={false}
          nothingFoundMessage="This client has no servers"
          {...form.getInputProps('serverId')}
          onChange={(value) => form.setFieldValue('serverId', value ?? '')}
        />
        <TextInput
          label="Directory"
          description={
            chosenServer === undefined
              ? "Where the command runs. Leave empty for the server's uiDir."
              : chosenServer.uiDir
                ? `Where the command runs. Leave empty for the server's uiDir: ${chosenServer.uiDir}`
                : "Where the command runs. Leave empty for the SSH user's home folder (the server has no uiDir)."
          }
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('directory')}
        />
        <TextInput
          label="Run command"
          description={`Leave empty for the default deploy command. Placeholders: ${PLACEHOLDER_LIST}`}
          placeholder={app?.command === null ? app.effectiveCommand : 'Default deploy command'}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('command')}
        />
        <DomainFields form={form} />
        <FormActions onCancel={onCancel} saving={form.submitting} />
      </Stack>
    </form>
  );
}
