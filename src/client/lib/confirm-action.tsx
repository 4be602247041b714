import { Text } from '@mantine/core';
import { openConfirmModal } from './confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import { errorMessage } from './api-client.ts';

/**
 * Asks before an action that cannot be undone (a red confirm button), then runs it: a green
 * notification says it was done, a red one why it failed.
 */
export function confirmAction(options: {
  title: string;
  text: string;
  confirm: string;
  run: () => Promise<unknown>;
  done: string;
}): void {
  openConfirmModal({
    title: options.title,
    children: (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {options.text}
      </Text>
    ),
    labels: { confirm: options.confirm, cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm: () =>
      void options.run().then(
        () => notifications.show({ color: 'green', message: options.done }),
        (error: unknown) => notifications.show({ color: 'red', message: errorMessage(error) }),
      ),
  });
}
