import { Button, Group, List, Popover, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Webhook } from '#shared/webhooks.ts';
import {
  FORMAT_LABELS,
  eventsByFamily,
  eventsText,
  ownerText,
  pausedText,
  pendingText,
} from '../webhook-text.ts';
import { LastDelivery } from './delivery-status.tsx';
import { WebhookActions, type WebhookActionHandlers } from './webhook-actions.tsx';
import { CardList } from '#client/components/card-list.tsx';
import { VisibleText } from '#client/components/visible-text.tsx';

const wrap = { overflowWrap: 'anywhere' } as const;

type ListProps = WebhookActionHandlers & { webhooks: readonly Webhook[] };

/** The endpoints: a table where Settings is wide enough, one card each on a phone. */
export function WebhookList(props: ListProps) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  if (props.webhooks.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No endpoints yet.
      </Text>
    );
  }
  return wide ? <WebhookTable {...props} /> : <WebhookCards {...props} />;
}

/** The number of events; the list of them, by family, opens from it. */
function Events({ webhook }: { webhook: Webhook }) {
  return (
    <Popover width={300} position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-label={`${eventsText(webhook.events)} sent to ${webhook.url}`}
        >
          {eventsText(webhook.events)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          {eventsByFamily(webhook.events).map((family) => (
            <Stack gap={2} key={family.name}>
              <Text size="xs" fw={700}>
                {family.name}
              </Text>
              <List size="xs" spacing={2}>
                {family.labels.map((label) => (
                  <List.Item key={label}>{label}</List.Item>
                ))}
              </List>
            </Stack>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Words, not a coloured badge: a paused endpoint is told by reading, not by hue. */
function Enabled({ webhook }: { webhook: Webhook }) {
  if (webhook.enabled && !webhook.paused) {
    return (
      <Text span size="sm">
        Enabled
      </Text>
    );
  }
  return (
    <Text span size="sm" fw={700} c="var(--mantine-color-error)">
      {webhook.enabled ? 'Paused' : 'Disabled'}
    </Text>
  );
}

/** Why an enabled endpoint sends nothing; nothing for the others. */
function PausedNote({ webhook }: { webhook: Webhook }) {
  if (!webhook.enabled || !webhook.paused) return null;
  return (
    <Text size="xs" c="dimmed" style={wrap}>
      {pausedText(webhook.owner)}
    </Text>
  );
}

function Address({ webhook }: { webhook: Webhook }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} style={wrap}>
        <VisibleText text={webhook.url} />
      </Text>
      <Text size="xs" c="dimmed">
        {FORMAT_LABELS[webhook.format]}
      </Text>
      <Text size="xs" c="dimmed" style={wrap}>
        {ownerText(webhook.owner)}
      </Text>
    </Stack>
  );
}

function WebhookTable({ webhooks, ...handlers }: ListProps) {
  return (
    <Table.ScrollContainer minWidth={620}>
      <Table verticalSpacing="sm" aria-label="Webhook endpoints">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Address and format</Table.Th>
            <Table.Th>Events</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Last delivery</Table.Th>
            <Table.Th>Waiting</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {webhooks.map((webhook) => (
            <Table.Tr key={webhook.id}>
              <Table.Td>
                <Address webhook={webhook} />
              </Table.Td>
              <Table.Td>
                <Events webhook={webhook} />
              </Table.Td>
              <Table.Td>
                <Stack gap={0}>
                  <Enabled webhook={webhook} />
                  <PausedNote webhook={webhook} />
                </Stack>
              </Table.Td>
              <Table.Td>
                <LastDelivery delivery={webhook.lastDelivery} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{webhook.pending}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap" justify="flex-end">
                  <DeliveriesButton webhook={webhook} onDeliveries={handlers.onDeliveries} />
                  <WebhookActions webhook={webhook} {...handlers} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function WebhookCards({ webhooks, ...handlers }: ListProps) {
  return (
    <CardList label="Webhook endpoints" items={webhooks} keyOf={(webhook) => webhook.id}>
      {(webhook) => (
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Address webhook={webhook} />
            <WebhookActions webhook={webhook} {...handlers} />
          </Group>
          <Group gap="xs">
            <Enabled webhook={webhook} />
            <Text span size="sm" c="dimmed">
              ·
            </Text>
            <Events webhook={webhook} />
          </Group>
          <PausedNote webhook={webhook} />
          <Group gap={6}>
            <Text size="sm" c="dimmed">
              Last delivery:
            </Text>
            <LastDelivery delivery={webhook.lastDelivery} />
          </Group>
          <Group justify="space-between">
            <Text size="sm">{pendingText(webhook.pending)}</Text>
            <DeliveriesButton webhook={webhook} onDeliveries={handlers.onDeliveries} />
          </Group>
        </Stack>
      )}
    </CardList>
  );
}

/** Opens the endpoint's deliveries, named by its address for a list of several. */
function DeliveriesButton({
  webhook,
  onDeliveries,
}: {
  webhook: Webhook;
  onDeliveries: (webhook: Webhook) => void;
}) {
  return (
    <Button
      variant="default"
      size="compact-sm"
      onClick={() => onDeliveries(webhook)}
      aria-label={`Deliveries to ${webhook.url}`}
    >
      Deliveries
    </Button>
  );
}
