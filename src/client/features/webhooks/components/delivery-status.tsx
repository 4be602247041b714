import { Badge, Group, Text } from '@mantine/core';
import type { DeliveryStatus } from '#shared/webhooks.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { STATUS_COLORS, STATUS_LABELS, relativeTime } from '../webhook-text.ts';

/**
 * A delivery's status: the dot carries the colour and the words stay in the text colour, so
 * they read at full contrast on either scheme.
 */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge
      variant="dot"
      color={STATUS_COLORS[status]}
      styles={{ root: { textTransform: 'none', color: 'var(--mantine-color-text)' } }}
    >
      {STATUS_LABELS[status]}
    </Badge>
  );
}

/** "5 minutes ago", with the exact time for a pointer's hover and a screen reader's `time`. */
export function When({ at }: { at: string }) {
  return (
    <Text component="time" dateTime={at} title={formatDateTime(at)} size="sm" inherit>
      {relativeTime(at)}
    </Text>
  );
}

/** The last delivery of an endpoint, in a list row: status, the receiver's code, when. */
export function LastDelivery({
  delivery,
}: {
  delivery: { status: DeliveryStatus; responseCode: number | null; at: string } | null;
}) {
  if (!delivery) {
    return (
      <Text size="sm" c="dimmed">
        None yet
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="wrap">
      <DeliveryStatusBadge status={delivery.status} />
      {delivery.responseCode !== null && (
        <Text size="sm" span>
          {`HTTP ${delivery.responseCode}`}
        </Text>
      )}
      <Text size="sm" c="dimmed" span>
        <When at={delivery.at} />
      </Text>
    </Group>
  );
}
