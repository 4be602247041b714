import { ActionIcon, Menu, Text } from '@mantine/core';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import type { Person } from '#shared/people-admin.ts';
import { DotsIcon } from '#client/components/icons.tsx';
import { errorMessage } from '#client/lib/api-client.ts';
import {
  useResetSecondFactor,
  useSignOutPerson,
  useUpdatePerson,
} from '../api/people-mutations.ts';

/**
 * One person's actions: edit role and tags (a dialog), disable or enable, sign out everywhere,
 * reset the second factor. The destructive ones ask first. A refusal (the last administrator)
 * goes to `onProblem`, which the page shows as an alert.
 */
export function PersonActions({
  person,
  onEditAccess,
  onProblem,
}: {
  person: Person;
  onEditAccess: () => void;
  onProblem: (message: string | null) => void;
}) {
  const update = useUpdatePerson();
  const signOut = useSignOutPerson();
  const reset = useResetSecondFactor();
  const who = person.email;

  async function run(work: () => Promise<unknown>, done: string) {
    onProblem(null);
    try {
      await work();
      notifications.show({ color: 'green', message: done });
    } catch (error) {
      onProblem(errorMessage(error));
    }
  }

  function confirm(options: { title: string; text: string; label: string; onConfirm: () => void }) {
    openConfirmModal({
      title: options.title,
      children: <Text size="sm">{options.text}</Text>,
      labels: { confirm: options.label, cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: options.onConfirm,
    });
  }

  const disable = () =>
    confirm({
      title: `Disable ${who}?`,
      text: 'They are signed out on every device at once and cannot sign in until an administrator enables them again.',
      label: 'Disable',
      onConfirm: () =>
        void run(
          () => update.mutateAsync({ id: person.id, patch: { disabled: true } }),
          `${who} is disabled`,
        ),
    });
  const enable = () =>
    void run(
      () => update.mutateAsync({ id: person.id, patch: { disabled: false } }),
      `${who} may sign in again`,
    );
  const signOutEverywhere = () =>
    confirm({
      title: `Sign ${who} out everywhere?`,
      text: 'Every device they are signed in on is signed out now, and their API tokens are revoked. They can sign in again.',
      label: 'Sign out everywhere',
      onConfirm: () =>
        void run(
          () => signOut.mutateAsync(person.id),
          `${who} is signed out everywhere, and their API tokens are revoked`,
        ),
    });
  const resetSecondFactor = () =>
    confirm({
      title: `Reset the second factor of ${who}?`,
      text: 'Their authenticator app, backup codes and passkeys are removed. They sign in with their password alone and set up a second factor again.',
      label: 'Reset second factor',
      onConfirm: () =>
        void run(() => reset.mutateAsync(person.id), `The second factor of ${who} is reset`),
    });

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${who}`}>
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onEditAccess}>Change role and tags</Menu.Item>
        {person.disabled ? (
          <Menu.Item onClick={enable}>Enable</Menu.Item>
        ) : (
          <Menu.Item color="var(--mantine-color-error)" onClick={disable}>
            Disable
          </Menu.Item>
        )}
        <Menu.Item
          color="var(--mantine-color-error)"
          onClick={signOutEverywhere}
          disabled={person.devices.length === 0}
        >
          Sign out everywhere
        </Menu.Item>
        <Menu.Item
          color="var(--mantine-color-error)"
          onClick={resetSecondFactor}
          disabled={!person.twoFactorEnabled && person.passkeys === 0}
        >
          Reset second factor
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
