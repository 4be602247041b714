import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { copyText } from '#client/lib/clipboard.ts';
import { CopyIcon } from '#client/components/icons.tsx';

async function copy(text: string, what: string) {
  // A failed copy is only logged (by copyText): the text is on screen to copy by hand.
  if (await copyText(text)) {
    notifications.show({ color: 'green', message: `${what} copied to clipboard.` });
  }
}

/** An SSH key's public half, one authorized_keys line, and its fingerprint, each copied in one click. */
export function PublicKey({
  publicKey,
  fingerprint,
}: {
  publicKey: string;
  fingerprint: string | null;
}) {
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Add this line to the server's ~/.ssh/authorized_keys to let this key sign in.
      </Text>
      <Code
        block
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', wordBreak: 'break-all' }}
      >
        {publicKey}
      </Code>
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<CopyIcon size={16} />}
          onClick={() => void copy(publicKey, 'Public key')}
        >
          Copy public key
        </Button>
        {fingerprint && (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<CopyIcon size={16} />}
            onClick={() => void copy(fingerprint, 'Fingerprint')}
          >
            Copy fingerprint
          </Button>
        )}
      </Group>
      {fingerprint && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span size="sm" fw={600}>
            {'Fingerprint: '}
          </Text>
          <Text span size="sm" ff="monospace">
            {fingerprint}
          </Text>
        </Text>
      )}
    </Stack>
  );
}
