import { Badge, Stack, Text } from '@mantine/core';
import type { Server } from '#shared/servers.ts';
import { statusLook } from '#client/lib/server-status.ts';

/** The check status as a coloured badge, with the failure's reason under it when asked. */
export function ServerStatusBadge({
  server,
  withReason = false,
}: {
  server: Pick<Server, 'status' | 'reason' | 'statusSince'>;
  withReason?: boolean;
}) {
  const look = statusLook(server);
  const badge = (
    <Badge
      // White on Mantine's filled green is 3.4:1; on teal-9 it is 5.0:1.
      color={look.color === 'green' ? 'teal.9' : look.color}
      variant={look.color === 'gray' ? 'light' : 'filled'}
      // Mantine cuts a badge's words short with an ellipsis; a status is read in full.
      styles={{
        root: { textTransform: 'none', height: 'auto', minHeight: 20, maxWidth: '100%' },
        label: { overflow: 'visible', whiteSpace: 'normal', textOverflow: 'clip' },
      }}
    >
      {look.label}
    </Badge>
  );
  if (!withReason || !look.detail) return badge;
  return (
    <Stack gap={2} align="flex-start">
      {badge}
      <Text size="xs" c="var(--mantine-color-error)" style={{ overflowWrap: 'anywhere' }}>
        {look.detail}
      </Text>
    </Stack>
  );
}
