import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useIsMounted } from '#client/lib/is-mounted.ts';
import {
  Checkbox,
  Fieldset,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
  Pill,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useReducedMotion } from '@mantine/hooks';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import { DEFAULT_SERVER_PORT, type Client } from '#shared/clients.ts';
import { todayIsoDate } from '#client/lib/format-date.ts';
import { parseTags } from '#shared/tags.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { PasswordField } from '#client/components/password-field.tsx';
import { DomainFields } from '#client/components/domain-fields.tsx';
import { useMe } from '#client/lib/session.ts';
import classes from './client-form.module.css';
import { useSaveClient } from '../api/client-mutations.ts';
import { clientQuery } from '../api/client-queries.ts';
import { useSavedVersion } from '#client/lib/saved-version.ts';
import { LoadSavedVersion } from '#client/components/load-saved-version.tsx';
import {
  clientToFormValues,
  emptyClientFormValues,
  formValuesToInput,
  toFormErrors,
  validateClientForm,
  type ClientFormValues,
} from '../client-form-values.ts';
import { FormActions } from '#client/components/form-actions.tsx';
import { focusFirstError, showFormFailure } from '#client/lib/form-errors.ts';

/**
 * `client` set: edit that client (at the version it was opened or loaded since); unset: add a
 * new one.
 */
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
  // A person limited by tag must keep one of theirs on every client (the server refuses else).
  const ownTags = useMe().tags;
  const [problem, setProblem] = useState<string | null>(null);
  const isMounted = useIsMounted();
  // The alert sits at the top of a long form, the Save button at its bottom: bring it into view.
  const problemRef = useRef<HTMLDivElement>(null);
  // Read as the page draws, not in an effect: the first scroll must follow it too.
  const reduceMotion = useReducedMotion(false, { getInitialValueInEffect: false });
  useEffect(() => {
    if (!problem) return;
    problemRef.current?.scrollIntoView({
      behavior: reduceMotion ? 'auto' : 'smooth',
      block: 'center',
    });
  }, [problem, reduceMotion]);
  const form = useForm<ClientFormValues>({
    initialValues: client ? clientToFormValues(client) : emptyClientFormValues(todayIsoDate()),
    validate: validateClientForm,
  });
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const saved = useSavedVersion(client, form, {
    toValues: clientToFormValues,
    query: clientQuery,
    setProblem,
    focus: () => nameRef.current?.focus(),
  });
  const keepsPassword = saved.base?.server.hasPassword ?? false;
  // Opened by + or Edit: typing starts in the first field.
  useEffect(() => nameRef.current?.focus(), []);

  /** Escape: closes as Cancel does, but asks first if something was typed. */
  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    // An open suggestion list (the tags input's) takes the Escape for itself.
    if ((event.target as HTMLElement).getAttribute('aria-expanded') === 'true') return;
    event.preventDefault();
    if (!form.isDirty()) {
      onCancel();
      return;
    }
    openConfirmModal({
      // An Escape pressed again before the question has the focus comes here too: one question.
      modalId: `${formId}-discard`,
      title: 'Discard your changes?',
      children: <Text size="sm">What you typed in this form will be lost.</Text>,
      labels: { confirm: 'Discard', cancel: 'Keep editing' },
      confirmProps: { color: 'red' },
      onConfirm: onCancel,
    });
  }

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      const input = formValuesToInput(values);
      // A start date left empty on Add is today where the person is; the server's is UTC's.
      try {
        const stored = await saved.save((base) =>
          save.mutateAsync(
            base
              ? { kind: 'update', id: base.id, version: base.version, input }
              : { kind: 'create', input: { startDate: todayIsoDate(), ...input } },
          ),
        );
        notifications.show({ color: 'green', message: 'Client Saved!' });
        if (isMounted()) onSaved(stored);
      } catch (error) {
        showFormFailure(error, {
          formId,
          form,
          setProblem,
          place: (fields) => toFormErrors(fields, values),
        });
      }
    },
    () => focusFirstError(formId),
  );

  return (
    <Paper withBorder p="lg" radius="md">
      <form id={formId} onSubmit={submit} onKeyDown={onKeyDown} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3">
            {client ? 'Edit Client' : 'Add Client'}
          </Title>
          <FormErrorAlert
            ref={problemRef}
            title="The client was not saved"
            message={problem}
            style={{ whiteSpace: 'pre-line' }}
          >
            <LoadSavedVersion of={saved} />
          </FormErrorAlert>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label="Name" ref={nameRef} {...form.getInputProps('name')} />
            <TextInput label="Code" {...form.getInputProps('code')} />
          </SimpleGrid>
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxRows={8}
            {...form.getInputProps('description')}
          />
          <TagsInput
            label="Tags"
            description={
              <>
                {form.values.tags[0]
                  ? `Enter or comma adds a tag. The first, ${form.values.tags[0]}, selects the deploy server.`
                  : 'Enter or comma adds a tag. The first tag selects the deploy server.'}
                {ownTags && (
                  <Text component="span" display="block" size="xs" fw={500}>
                    Must include one of: {ownTags.join(', ')}
                  </Text>
                )}
              </>
            }
            {...form.getInputProps('tags')}
            // A pasted or typed "a, b" becomes two tags, as the server would read it.
            onChange={(tags) => form.setFieldValue('tags', parseTags(tags))}
            renderPill={({ value, onRemove }) => (
              <Pill
                withRemoveButton
                onRemove={onRemove}
                // Mantine hides the remove button from assistive tech; here each tag can be removed
                // by name, not only the last one with Backspace.
                removeButtonProps={{
                  'aria-label': `Remove tag ${value ?? ''}`,
                  'aria-hidden': false,
                  tabIndex: 0,
                }}
                className={value === form.values.tags[0] ? classes.deployTag : undefined}
                title={value === form.values.tags[0] ? 'Deploy server' : undefined}
              >
                {value}
              </Pill>
            )}
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
                  // Left empty, the server's port is the default: the field says which.
                  placeholder={String(DEFAULT_SERVER_PORT)}
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
                  placeholder={
                    keepsPassword && !form.values.server.removePassword ? 'Unchanged' : undefined
                  }
                  description={
                    form.values.server.removePassword
                      ? 'The stored password is removed when you save.'
                      : keepsPassword
                        ? 'Leave empty to keep the stored password.'
                        : undefined
                  }
                  disabled={form.values.server.removePassword}
                  {...form.getInputProps('server.password')}
                />
              </SimpleGrid>
              {keepsPassword && (
                <Checkbox
                  label="Remove the stored password"
                  {...form.getInputProps('server.removePassword', { type: 'checkbox' })}
                  onChange={(event) => {
                    form.setFieldValue('server.removePassword', event.currentTarget.checked);
                    if (event.currentTarget.checked) form.setFieldValue('server.password', '');
                  }}
                />
              )}
              <TextInput label="uiDir" autoComplete="off" {...form.getInputProps('server.uiDir')} />
              <Checkbox
                label="Private"
                {...form.getInputProps('server.private', { type: 'checkbox' })}
              />
            </Stack>
          </Fieldset>

          <DomainFields
            form={form}
            description="Web addresses of this client, each an http:// or https:// URL."
          />

          <FormActions onCancel={onCancel} saving={form.submitting} />
        </Stack>
      </form>
    </Paper>
  );
}
