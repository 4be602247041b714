import { ActionIcon, Menu, Text } from '@mantine/core';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import type { Webhook } from '#shared/webhooks.ts';
import { DotsIcon } from '#client/components/icons.tsx';
import { errorMessage } from '#client/lib/api-client.ts';
import { useDeleteWebhook, useTestWebhook } from '../api/webhook-mutations.ts';

export interface WebhookActionHandlers {
  onEdit: (webhook: Webhook) => void;
  onDeliveries: (webhook: Webhook) => void;
  /** A refusal, said by the section as an alert. */
  onProblem: (message: string | null) => void;
}

/** One endpoint's actions: edit, its deliveries, send a test, delete (asked first). */
export function WebhookActions({
  webhook,
  onEdit,
  onDeliveries,
  onProblem,
}: WebhookActionHandlers & { webhook: Webhook }) {
  const remove = useDeleteWebhook();
  const test = useTestWebhook();

  async function run(work: () => Promise<unknown>, done: string) {
    onProblem(null);
    try {
      await work();
      notifications.show({ color: 'green', message: done });
    } catch (error) {
      onProblem(errorMessage(error));
    }
  }

  const sendTest = () =>
    void run(
      () => test.mutateAsync(webhook.id),
      'Test queued: it is sent in a moment. Its result is under Deliveries.',
    );
  const confirmDelete = () =>
    openConfirmModal({
      title: 'Delete this endpoint?',
      children: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {`Nothing more is sent to ${webhook.url}.`}
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => void run(() => remove.mutateAsync(webhook.id), 'Endpoint deleted.'),
    });

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${webhook.url}`}>
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onEdit(webhook)}>Edit</Menu.Item>
        <Menu.Item onClick={() => onDeliveries(webhook)}>Deliveries</Menu.Item>
        <Menu.Item onClick={sendTest} disabled={!webhook.enabled}>
          Send a test
        </Menu.Item>
        <Menu.Item color="var(--mantine-color-error)" onClick={confirmDelete}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
