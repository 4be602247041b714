import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  Drawer,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Webhook, WebhookDelivery } from '#shared/webhooks.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { errorMessage } from '#client/lib/api-client.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { deliveriesQuery } from '../api/webhook-queries.ts';
import { useResendDelivery } from '../api/webhook-mutations.ts';
import { EVENT_LABELS, attemptsText } from '../webhook-text.ts';
import { DeliveryStatusBadge, When } from './delivery-status.tsx';
import { CardList } from '#client/components/card-list.tsx';
import { VisibleText } from '#client/components/visible-text.tsx';

const wrap = { overflowWrap: 'anywhere' } as const;

/** One endpoint's deliveries, newest first, from the side (the whole screen on a phone). */
export function DeliveriesDrawer({
  webhook,
  onClose,
}: {
  webhook: Webhook | null;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Drawer
      opened={webhook !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'min(1000px, 100%)'}
      title="Deliveries"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {webhook && <Deliveries webhook={webhook} />}
    </Drawer>
  );
}

interface RowProps {
  delivery: WebhookDelivery;
  onResend: (delivery: WebhookDelivery) => void;
  resending: string | null;
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const deliveries = useInfiniteQuery(deliveriesQuery(webhook.id));
  const resend = useResendDelivery();
  const [resending, setResending] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });

  async function sendAgain(delivery: WebhookDelivery) {
    setProblem(null);
    setResending(delivery.id);
    try {
      await resend.mutateAsync({ id: webhook.id, deliveryId: delivery.id });
      notifications.show({ color: 'green', message: 'Queued to be sent again.' });
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setResending(null);
    }
  }

  const list = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const rows: Omit<RowProps, 'delivery'> = { onResend: (d) => void sendAgain(d), resending };
  return (
    <Stack gap="md">
      <Text size="sm" style={wrap}>
        {'To '}
        <Text span fw={600} size="sm">
          <VisibleText text={webhook.url} />
        </Text>
        . A failed delivery is tried again for up to 24 hours from when it was queued, waiting
        longer each time. Each is listed for 30 days after its last attempt.
      </Text>
      {problem && (
        <Alert
          color="red"
          role="alert"
          title="Not sent again"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setProblem(null)}
        >
          {problem}
        </Alert>
      )}
      {deliveries.isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading the deliveries">
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      ) : deliveries.isError ? (
        <ErrorAlert
          title="Could not load the deliveries"
          error={deliveries.error}
          onRetry={() => void deliveries.refetch()}
        />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing sent yet. Each event this endpoint wants is sent as it happens.
        </Text>
      ) : wide ? (
        <DeliveryTable deliveries={list} {...rows} />
      ) : (
        <DeliveryCards deliveries={list} {...rows} />
      )}
      {deliveries.hasNextPage && (
        <Group>
          <Button
            variant="default"
            onClick={() => void deliveries.fetchNextPage()}
            loading={deliveries.isFetchingNextPage}
          >
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function EventKind({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{EVENT_LABELS[delivery.eventKind]}</Text>
      <Code fz="xs" style={{ width: 'fit-content' }}>
        {delivery.eventKind}
      </Code>
    </Stack>
  );
}

function ResponseCode({ delivery }: { delivery: WebhookDelivery }) {
  return delivery.responseCode === null ? (
    <Text size="sm" c="dimmed">
      No answer
    </Text>
  ) : (
    <Text size="sm">{`HTTP ${delivery.responseCode}`}</Text>
  );
}

/** When it was queued, and when it was delivered or is tried next. */
function Times({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Stack gap={0}>
      <Text size="sm">
        {'Queued '}
        <When at={delivery.createdAt} />
      </Text>
      {delivery.deliveredAt ? (
        <Text size="xs" c="dimmed">
          {'Delivered '}
          <When at={delivery.deliveredAt} />
        </Text>
      ) : delivery.nextAttemptAt && delivery.status === 'pending' ? (
        <Text size="xs" c="dimmed">
          {'Next try '}
          <When at={delivery.nextAttemptAt} />
        </Text>
      ) : delivery.lastAttemptAt ? (
        <Text size="xs" c="dimmed">
          {'Last tried '}
          <When at={delivery.lastAttemptAt} />
        </Text>
      ) : null}
    </Stack>
  );
}

function ResendButton({ delivery, onResend, resending }: RowProps) {
  if (delivery.status === 'pending') return null;
  return (
    <Button
      variant="default"
      size="compact-sm"
      loading={resending === delivery.id}
      disabled={resending !== null && resending !== delivery.id}
      onClick={() => onResend(delivery)}
      aria-label={`Send again: ${EVENT_LABELS[delivery.eventKind]}, ${formatDateTime(delivery.createdAt)}`}
    >
      Send again
    </Button>
  );
}

function DeliveryTable({
  deliveries,
  ...row
}: Omit<RowProps, 'delivery'> & { deliveries: WebhookDelivery[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" aria-label="Deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Response</Table.Th>
            <Table.Th>Error</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td>
                <EventKind delivery={delivery} />
              </Table.Td>
              <Table.Td>
                <DeliveryStatusBadge status={delivery.status} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{delivery.attempts}</Text>
              </Table.Td>
              <Table.Td>
                <ResponseCode delivery={delivery} />
              </Table.Td>
              <Table.Td maw={220}>
                <Text size="sm" style={wrap}>
                  {delivery.error ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <Times delivery={delivery} />
              </Table.Td>
              <Table.Td>
                <ResendButton delivery={delivery} {...row} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function DeliveryCards({
  deliveries,
  ...row
}: Omit<RowProps, 'delivery'> & { deliveries: WebhookDelivery[] }) {
  return (
    <CardList label="Deliveries" items={deliveries} keyOf={(delivery) => delivery.id}>
      {(delivery) => (
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <EventKind delivery={delivery} />
            <DeliveryStatusBadge status={delivery.status} />
          </Group>
          <Group gap="xs">
            <ResponseCode delivery={delivery} />
            <Text span size="sm" c="dimmed">
              ·
            </Text>
            <Text size="sm">{attemptsText(delivery.attempts)}</Text>
          </Group>
          {delivery.error && (
            <Text size="sm" c="var(--mantine-color-error)" style={wrap}>
              {delivery.error}
            </Text>
          )}
          <Group justify="space-between" align="flex-end">
            <Times delivery={delivery} />
            <ResendButton delivery={delivery} {...row} />
          </Group>
        </Stack>
      )}
    </CardList>
  );
}
