import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { Invitation } from '#shared/people-admin.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { useRevokeInvitation } from '../api/people-mutations.ts';
import { ROLE_LABELS, tagsText } from '../people-text.ts';
import { confirmAction } from '#client/lib/confirm-action.tsx';
import { CardList } from '#client/components/card-list.tsx';

const wrap = { overflowWrap: 'anywhere' } as const;

/** Invitations nobody has used yet; each can be revoked (its link then stops working). */
export function InvitationList({ invitations }: { invitations: readonly Invitation[] }) {
  const revoke = useRevokeInvitation();
  // When the list was shown: an invitation expiring meanwhile is marked on the next visit.
  const [now] = useState(() => Date.now());

  function confirmRevoke(invitation: Invitation) {
    confirmAction({
      title: `Revoke the invitation of ${invitation.email}?`,
      text: 'The link in their mail stops working.',
      confirm: 'Revoke',
      run: () => revoke.mutateAsync(invitation.id),
      done: 'Invitation revoked',
    });
  }

  if (invitations.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No pending invitations.
      </Text>
    );
  }
  return (
    <CardList
      label="Pending invitations"
      items={invitations}
      keyOf={(invitation) => invitation.id}
      gap="xs"
    >
      {(invitation) => {
        const expired = new Date(invitation.expiresAt).getTime() <= now;
        return (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={2}>
              <Text size="sm" fw={600} style={wrap}>
                {invitation.email}
              </Text>
              <Text size="xs" c="dimmed" style={wrap}>
                {`${ROLE_LABELS[invitation.role]} · ${tagsText(invitation.tags)} · ${
                  expired ? 'Expired' : 'Expires'
                } ${formatDateTime(invitation.expiresAt)}${
                  invitation.invitedBy ? ` · Invited by ${invitation.invitedBy}` : ''
                }`}
              </Text>
            </Stack>
            <Button
              variant="light"
              color="red"
              size="compact-sm"
              onClick={() => confirmRevoke(invitation)}
              aria-label={`Revoke the invitation of ${invitation.email}`}
            >
              Revoke
            </Button>
          </Group>
        );
      }}
    </CardList>
  );
}
