import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  webhookCreatedSchema,
  webhookDeliverySchema,
  webhookSchema,
  type WebhookInput,
  type WebhookPatch,
} from '#shared/webhooks.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';
import { webhookKeys } from '#client/lib/query-keys.ts';
import { webhookPath } from './webhook-queries.ts';

/** After any change: the endpoints and their deliveries. */
function useWebhookMutation<V, R>(request: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** Answers the endpoint and its secret, which is shown this once. */
export function useCreateWebhook() {
  return useWebhookMutation((input: WebhookInput) =>
    apiRequest('/api/webhooks', webhookCreatedSchema, { method: 'POST', body: input }),
  );
}

export function useUpdateWebhook() {
  return useWebhookMutation(({ id, patch }: { id: string; patch: WebhookPatch }) =>
    apiRequest(webhookPath(id), webhookSchema, { method: 'PATCH', body: patch }),
  );
}

export function useDeleteWebhook() {
  return useWebhookMutation((id: string) => apiSend(webhookPath(id), { method: 'DELETE' }));
}

/** Queues a delivery of the newest event the endpoint wants; 409 when there is none yet. */
export function useTestWebhook() {
  return useWebhookMutation((id: string) =>
    // The 202's body is not read: the delivery shows up in the list like any other.
    apiSend(webhookPath(id, '/test'), { method: 'POST' }),
  );
}

export function useResendDelivery() {
  return useWebhookMutation(({ id, deliveryId }: { id: string; deliveryId: string }) =>
    apiRequest(
      webhookPath(id, `/deliveries/${encodeURIComponent(deliveryId)}/resend`),
      webhookDeliverySchema,
      { method: 'POST' },
    ),
  );
}
