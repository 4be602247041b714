import { useState } from 'react';
import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Credential, CredentialSecret } from '#shared/credentials.ts';
import { copyText } from '#client/lib/clipboard.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { CopyIcon, EyeIcon, EyeOffIcon } from '#client/components/icons.tsx';
import { fetchCredentialSecret } from '../api/credential-queries.ts';

/**
 * Reveal shows the secret until Hide (or until the credential changes); Copy puts it on the
 * clipboard without showing it. Each is one audited read, only on the click.
 */
export function SecretReveal({ credential }: { credential: Credential }) {
  const [revealed, setRevealed] = useState<{ version: number; secret: CredentialSecret } | null>(
    null,
  );
  const [busy, setBusy] = useState<'reveal' | 'copy' | null>(null);
  const shown = revealed?.version === credential.version ? revealed.secret : null;
  const what =
    credential.kind === 'ssh-key'
      ? 'Private key'
      : credential.kind === 'password'
        ? 'Password'
        : 'Token';

  async function reveal() {
    if (shown) {
      setRevealed(null);
      return;
    }
    setBusy('reveal');
    try {
      const secret = await fetchCredentialSecret(credential.id, 'reveal');
      setRevealed({ version: credential.version, secret });
    } catch (error) {
      notifyFailure('Could not reveal the secret', error);
    } finally {
      setBusy(null);
    }
  }

  async function copy() {
    setBusy('copy');
    try {
      const { secret } = await fetchCredentialSecret(credential.id, 'copy');
      if (await copyText(secret)) {
        notifications.show({ color: 'green', message: `${what} copied to clipboard.` });
      }
    } catch (error) {
      notifyFailure('Could not copy the secret', error);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Revealing or copying the secret is recorded with your name.
      </Text>
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="light"
          leftSection={shown ? <EyeOffIcon size={16} /> : <EyeIcon size={16} />}
          loading={busy === 'reveal'}
          onClick={() => void reveal()}
        >
          {shown ? 'Hide secret' : 'Reveal secret'}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<CopyIcon size={16} />}
          loading={busy === 'copy'}
          onClick={() => void copy()}
        >
          Copy secret
        </Button>
      </Group>
      {shown && (
        <Stack gap={4}>
          <Code
            block
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', wordBreak: 'break-all' }}
          >
            {shown.secret}
          </Code>
          {shown.passphrase !== null && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span size="sm" fw={600}>
                {'Passphrase: '}
              </Text>
              <Text span size="sm" ff="monospace">
                {shown.passphrase}
              </Text>
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
