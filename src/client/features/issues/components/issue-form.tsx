import { useEffect, useId, useRef, useState } from 'react';
import { useIsMounted } from '#client/lib/is-mounted.ts';
import { FormModal } from '#client/components/form-modal.tsx';
import { Group, Radio, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { Issue, IssueKind } from '#shared/issues.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { clientsQuery } from '#client/lib/client-list-query.ts';
import { serversQuery } from '#client/lib/server-queries.ts';
import { clientAppsQuery } from '#client/lib/app-list-query.ts';
import { useSaveIssue } from '../api/issue-mutations.ts';
import { assigneesQuery, issueQuery } from '../api/issue-queries.ts';
import { useSavedVersion } from '#client/lib/saved-version.ts';
import { LoadSavedVersion } from '#client/components/load-saved-version.tsx';
import {
  emptyIssueFormValues,
  formValuesToCreate,
  formValuesToUpdate,
  issueToFormValues,
  toFormErrors,
  validateIssueForm,
  type IssueFormValues,
} from '../issue-form-values.ts';
import { clientLabel } from '#shared/clients.ts';
import { personOptions } from '../issue-text.ts';
import { FormActions } from '#client/components/form-actions.tsx';
import { focusFirstError, showFormFailure } from '#client/lib/form-errors.ts';
import { FixedClientField } from '#client/components/fixed-client-field.tsx';

/**
 * Open a new issue or edit one in a dialog. `issue` set: edit it at the version it was opened or
 * loaded since; `client` set: a new issue of that client (no client picker).
 */
export function IssueFormModal({
  opened,
  onClose,
  issue,
  client,
  onSaved,
}: {
  opened: boolean;
  onClose: () => void;
  issue?: Issue;
  client?: Issue['client'];
  onSaved?: (issue: Issue) => void;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title={issue ? 'Edit issue' : 'New issue'}>
      <IssueForm
        issue={issue}
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

const NONE = { value: '', label: 'None' };

function IssueForm({
  issue,
  client,
  onSaved,
  onCancel,
}: {
  issue?: Issue | undefined;
  client?: Issue['client'] | undefined;
  onSaved: (issue: Issue) => void;
  onCancel: () => void;
}) {
  const save = useSaveIssue();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const isMounted = useIsMounted();
  const form = useForm<IssueFormValues>({
    initialValues: issue ? issueToFormValues(issue) : emptyIssueFormValues(client?.id),
    validate: validateIssueForm,
  });
  const owner = issue?.client ?? client;
  const clientId = form.values.clientId;
  const clients = useQuery({ ...clientsQuery(), enabled: !owner });
  const servers = useQuery({ ...serversQuery({ clientId }), enabled: clientId !== '' });
  const apps = useQuery({ ...clientAppsQuery(clientId), enabled: clientId !== '' });
  const people = useQuery(assigneesQuery(clientId === '' ? undefined : clientId));
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);
  const saved = useSavedVersion(issue, form, {
    toValues: issueToFormValues,
    query: issueQuery,
    setProblem,
    focus: () => firstRef.current?.focus(),
  });

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      try {
        const stored = await saved.save((base) =>
          save.mutateAsync(
            base
              ? { kind: 'update', id: base.id, input: formValuesToUpdate(values, base.version) }
              : { kind: 'create', input: formValuesToCreate(values) },
          ),
        );
        notifications.show({ color: 'green', message: issue ? 'Issue saved.' : 'Issue opened.' });
        if (isMounted()) onSaved(stored);
      } catch (error) {
        showFormFailure(error, { formId, form, setProblem, place: toFormErrors });
      }
    },
    () => focusFirstError(formId),
  );

  // What the issue is about, kept when the lists have not loaded yet (or it was removed since).
  const serverOptions = [
    NONE,
    ...(servers.data ?? []).map((server) => ({ value: server.id, label: server.label })),
  ];
  if (issue?.server && !serverOptions.some((o) => o.value === issue.server?.id)) {
    serverOptions.push({ value: issue.server.id, label: issue.server.label });
  }
  const appOptions = [
    NONE,
    ...(apps.data ?? []).map((app) => ({ value: app.id, label: app.name })),
  ];
  if (issue?.app && !appOptions.some((o) => o.value === issue.app?.id)) {
    appOptions.push({ value: issue.app.id, label: issue.app.name });
  }
  const assigneeOptions = [{ value: '', label: 'Nobody' }, ...personOptions(people.data ?? [])];
  if (issue?.assignee && !assigneeOptions.some((o) => o.value === issue.assignee?.id)) {
    assigneeOptions.push({ value: issue.assignee.id, label: issue.assignee.name });
  }

  function chooseApp(appId: string) {
    form.setFieldValue('appId', appId);
    // An app runs on one server: it is what the issue is about unless one was chosen.
    const app = apps.data?.find((candidate) => candidate.id === appId);
    if (app?.server && form.values.serverId === '') form.setFieldValue('serverId', app.server.id);
  }

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormErrorAlert
          title="The issue was not saved"
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
            data={(clients.data ?? []).map((c) => ({ value: c.id, label: clientLabel(c) }))}
            ref={firstRef}
            {...form.getInputProps('clientId')}
            onChange={(value) => {
              form.setFieldValue('clientId', value ?? '');
              // A server or app belongs to one client: choosing another leaves them unset.
              form.setFieldValue('serverId', '');
              form.setFieldValue('appId', '');
            }}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Select
            label="Server"
            description={clientId ? undefined : 'Choose the client first'}
            disabled={clientId === ''}
            // Below the input, so the two pickers stay level whichever has a note.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            data={serverOptions}
            allowDeselect={false}
            {...form.getInputProps('serverId')}
            onChange={(value) => form.setFieldValue('serverId', value ?? '')}
          />
          <Select
            label="App"
            description={
              clientId === ''
                ? 'Choose the client first'
                : apps.isError
                  ? 'The apps could not be loaded'
                  : undefined
            }
            disabled={clientId === ''}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            data={appOptions}
            allowDeselect={false}
            {...form.getInputProps('appId')}
            onChange={(value) => chooseApp(value ?? '')}
          />
        </SimpleGrid>
        <Radio.Group
          label="Kind"
          {...form.getInputProps('kind')}
          onChange={(value) => form.setFieldValue('kind', value as IssueKind)}
        >
          <Group gap="lg" mt={6}>
            <Radio value="note" label="Note" description="Something colleagues should know" />
            <Radio value="problem" label="Problem" description="Something wrong to put right" />
          </Group>
        </Radio.Group>
        <TextInput
          label="Title"
          autoComplete="off"
          maxLength={200}
          {...(owner ? { ref: firstRef } : {})}
          {...form.getInputProps('title')}
        />
        <Textarea label="Text" autosize minRows={4} maxRows={14} {...form.getInputProps('text')} />
        <Select
          label="Assignee"
          searchable
          nothingFoundMessage="Nobody matches"
          data={assigneeOptions}
          allowDeselect={false}
          {...form.getInputProps('assigneeId')}
          onChange={(value) => form.setFieldValue('assigneeId', value ?? '')}
        />
        <FormActions onCancel={onCancel} saving={form.submitting} />
      </Stack>
    </form>
  );
}
