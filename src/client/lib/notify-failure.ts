import { notifications } from '@mantine/notifications';
import { errorMessage } from './api-client.ts';

/** A red notification for an action that failed away from any form: what failed, and why. */
export function notifyFailure(title: string, error: unknown): void {
  notifications.show({ color: 'red', title, message: errorMessage(error) });
}
