import { useId, useState } from 'react';
import { Group, Modal, Radio, Stack, Switch, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { WEBHOOK_FORMATS, type Webhook, type WebhookFormat } from '#shared/webhooks.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { PasswordField } from '#client/components/password-field.tsx';
import { useCreateWebhook, useUpdateWebhook } from '../api/webhook-mutations.ts';
import { FORMAT_LABELS } from '../webhook-text.ts';
import {
  initialValues,
  toFormErrors,
  toInput,
  toPatch,
  webhookFormSchema,
  type WebhookFormValues,
} from '../webhook-form-values.ts';
import { EventsField } from './events-field.tsx';
import { SecretOnce } from './secret-once.tsx';
import { FormActions } from '#client/components/form-actions.tsx';
import { focusFirstError, showFormFailure } from '#client/lib/form-errors.ts';
import { useIsMounted } from '#client/lib/is-mounted.ts';

const ADDED_UNSEEN =
  'Endpoint added. Its signing secret was not shown, as the dialog was closed first: edit the endpoint to set a new one.';

/** What the dialog is open for: a new endpoint, or an existing one to edit. */
export type WebhookEditing = { webhook: Webhook | null } | null;

/**
 * Adds or edits an endpoint, full screen on a phone. After an add, the dialog shows the
 * signing secret once and closes only by its Done button, so a stray click does not lose it.
 */
export function WebhookFormModal({
  editing,
  onClose,
}: {
  editing: WebhookEditing;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  const title = secret
    ? 'Endpoint added'
    : editing?.webhook
      ? 'Edit webhook endpoint'
      : 'Add a webhook endpoint';
  return (
    <Modal
      opened={editing !== null}
      onClose={close}
      title={title}
      size="lg"
      fullScreen={phone}
      centered
      closeOnClickOutside={secret === null}
      closeOnEscape={secret === null}
      withCloseButton={secret === null}
    >
      {editing !== null &&
        (secret ? (
          <SecretOnce secret={secret} onDone={close} />
        ) : (
          <WebhookForm webhook={editing.webhook} onCreated={setSecret} onClose={close} />
        ))}
    </Modal>
  );
}

function WebhookForm({
  webhook,
  onCreated,
  onClose,
}: {
  webhook: Webhook | null;
  onCreated: (secret: string) => void;
  onClose: () => void;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const isMounted = useIsMounted();
  const form = useForm<WebhookFormValues>({
    initialValues: initialValues(webhook),
    validate: schemaResolver(webhookFormSchema, { sync: true }),
  });

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      try {
        if (webhook) {
          await update.mutateAsync({
            id: webhook.id,
            patch: toPatch(form.getInitialValues(), values),
          });
          notifications.show({ color: 'green', message: 'Endpoint saved.' });
          if (isMounted()) onClose();
        } else {
          const created = await create.mutateAsync(toInput(values));
          if (isMounted()) onCreated(created.secret);
          // Closed while it was added: the secret is shown once, in this dialog, and the
          // dialog is gone. The next one opened (perhaps an Edit) must not show it instead.
          else notifications.show({ color: 'yellow', message: ADDED_UNSEEN });
        }
      } catch (error) {
        showFormFailure(error, { formId, form, setProblem, place: toFormErrors });
      }
    },
    () => focusFirstError(formId),
  );

  const eventsError = form.errors.events;
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormErrorAlert
          title={webhook ? 'The endpoint was not saved' : 'The endpoint was not added'}
          message={problem}
          style={{ whiteSpace: 'pre-line' }}
        />
        <TextInput
          label="Address (URL)"
          description="Where each event is sent, as an HTTP POST."
          placeholder="https://example.com/hooks/clients-manager"
          required
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('url')}
        />
        <div data-error-group={eventsError ? '' : undefined}>
          <EventsField
            value={form.values.events}
            onChange={(events) => {
              form.setFieldValue('events', events);
              form.clearFieldError('events');
            }}
            error={eventsError}
          />
        </div>
        <Radio.Group
          label="Format"
          value={form.values.format}
          onChange={(format) => form.setFieldValue('format', format as WebhookFormat)}
          error={form.errors.format}
        >
          <Group gap="lg" mt={6}>
            {WEBHOOK_FORMATS.map((format) => (
              <Radio key={format} value={format} label={FORMAT_LABELS[format]} />
            ))}
          </Group>
        </Radio.Group>
        <PasswordField
          label="Signing secret"
          autoComplete="new-password"
          description={
            webhook
              ? 'Leave empty to keep the current one; a new one replaces it.'
              : 'Leave empty to generate one. If you choose it: at least 16 characters.'
          }
          {...form.getInputProps('secret')}
        />
        <Switch
          label="Enabled"
          description="When off, nothing is sent, and events of that time are not sent later."
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <FormActions
          onCancel={onClose}
          saving={form.submitting}
          submit={webhook ? 'Save' : 'Add endpoint'}
        />
      </Stack>
    </form>
  );
}
