import { Alert, Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SIGNATURE_HEADER } from '#shared/webhooks.ts';
import { copyText } from '#client/lib/clipboard.ts';
import { CopyIcon } from '#client/components/icons.tsx';

/** A new endpoint's signing secret, this once: the server keeps no way to show it again. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  async function copy() {
    if (await copyText(secret)) {
      notifications.show({ color: 'green', message: 'Signing secret copied to clipboard.' });
    }
  }

  return (
    <Stack gap="md">
      <Alert color="yellow" title="Copy the signing secret now" role="status">
        You will not see it again. If it is lost, set a new one by editing the endpoint.
      </Alert>
      <Textarea
        label="Signing secret"
        value={secret}
        readOnly
        autosize
        minRows={1}
        styles={{
          input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' },
        }}
      />
      <Text size="sm" c="dimmed">
        Each delivery carries <Code>{SIGNATURE_HEADER}: sha256=…</Code>, the HMAC-SHA256 of the body
        with this secret. The receiver computes it too and refuses a body whose signature differs,
        or whose timestamp is old.
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" leftSection={<CopyIcon size={16} />} onClick={() => void copy()}>
          Copy secret
        </Button>
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
