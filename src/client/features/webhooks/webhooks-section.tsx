import { useEffect, useState } from 'react';
import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Webhook } from '#shared/webhooks.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon } from '#client/components/icons.tsx';
import { onClientEvent } from '#client/lib/live-updates.ts';
import { webhookKeys } from '#client/lib/query-keys.ts';
import { useCan } from '#client/lib/use-can.ts';
import { webhooksQuery } from './api/webhook-queries.ts';
import { DeliveriesDrawer } from './components/deliveries-drawer.tsx';
import { WebhookFormModal, type WebhookEditing } from './components/webhook-form.tsx';
import { WebhookList } from './components/webhook-list.tsx';

/**
 * Every event makes deliveries for the endpoints that want it; the lists are asked again once
 * per this window however many events arrive in it (an import writes thousands).
 */
const EVENT_REFRESH_MS = 1_000;

/** Settings → Webhooks: administrators only; nothing at all for anyone else. */
export function WebhooksSection() {
  const mayAdminister = useCan('admin');
  return mayAdminister ? <Webhooks /> : null;
}

function Webhooks() {
  const webhooks = useQuery(webhooksQuery());
  const [editing, setEditing] = useState<WebhookEditing>(null);
  const [showing, setShowing] = useState<Webhook | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useRefreshOnEvents();
  // The drawer follows the list, so a change made meanwhile (a rename, a delete) shows in it.
  const shown = showing && (webhooks.data?.webhooks.find((w) => w.id === showing.id) ?? null);

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="webhooks-title">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={2} size="h4" id="webhooks-title">
            Webhooks
          </Title>
          <Button
            leftSection={<PlusIcon size={16} />}
            onClick={() => setEditing({ webhook: null })}
          >
            Add endpoint
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Addresses that are told about changes as they happen: a chat channel, a deploy script, a
          monitoring job. Each delivery is a signed JSON POST; it never carries a password or other
          secret.
        </Text>
        {problem && (
          <Alert
            color="red"
            role="alert"
            title="Not done"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setProblem(null)}
          >
            {problem}
          </Alert>
        )}
        {webhooks.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading the webhooks">
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : webhooks.isError ? (
          <ErrorAlert
            title="Could not load the webhooks"
            error={webhooks.error}
            onRetry={() => void webhooks.refetch()}
          />
        ) : (
          <WebhookList
            webhooks={webhooks.data.webhooks}
            onEdit={(webhook) => setEditing({ webhook })}
            onDeliveries={setShowing}
            onProblem={setProblem}
          />
        )}
      </Stack>
      <WebhookFormModal editing={editing} onClose={() => setEditing(null)} />
      <DeliveriesDrawer webhook={shown} onClose={() => setShowing(null)} />
    </Paper>
  );
}

/** New events mean new deliveries: the live feed says when, with no word about webhooks. */
function useRefreshOnEvents() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onClientEvent(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      }, EVENT_REFRESH_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [queryClient]);
}
