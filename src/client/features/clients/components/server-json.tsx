import { useEffect, useState } from 'react';
import { Button, Code, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Client } from '#shared/clients.ts';
import { replaceHidden } from '#shared/command-safe-text.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { copyText } from '#client/lib/clipboard.ts';
import { CopyIcon, EyeIcon, EyeOffIcon } from '#client/components/icons.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { onClientEvent } from '#client/lib/live-updates.ts';
import { fetchClientPassword } from '../api/client-queries.ts';

const MASK = '••••••••';

/** The server details as the original showed them: a JSON document, keys in its order. */
export function serverJson(server: Client['server'], password: string | null): string {
  const shown = {
    username: server.username,
    private: server.private,
    password: password ?? (server.hasPassword ? MASK : ''),
    port: server.port,
    host: server.host,
    uiDir: server.uiDir,
  };
  // JSON escapes C0 controls inside strings by itself, so a raw newline is only its own layout;
  // the other hidden characters (C1, bidi, zero-width) get the same \u escape, so a value that
  // withholds the commands shows why.
  return replaceHidden(JSON.stringify(shown, null, 2), (c) =>
    c === '\n' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function ServerJson({ client }: { client: Client }) {
  // Tied to the version it was read at, so an edit elsewhere hides a revealed password again.
  const [revealed, setRevealed] = useState<{ version: number; password: string } | null>(null);
  const [busy, setBusy] = useState<'reveal' | 'copy' | null>(null);
  const maySeeSecrets = useCan('secret');
  const password =
    client.server.hasPassword && revealed?.version === client.version ? revealed.password : null;
  // The password is a vault credential's secret, which can be replaced in the vault without the
  // client changing: any change to a credential hides it, and Copy then reads it afresh.
  useEffect(
    () =>
      onClientEvent((event) => {
        if (event.credentialId !== null && event.kind !== 'credential.revealed') setRevealed(null);
      }),
    [],
  );

  async function reveal() {
    if (password !== null) {
      setRevealed(null);
      return;
    }
    setBusy('reveal');
    try {
      setRevealed({ version: client.version, password: await fetchClientPassword(client.id) });
    } catch (error) {
      notifyFailure('Could not read the password', error);
    } finally {
      setBusy(null);
    }
  }

  async function copy() {
    setBusy('copy');
    try {
      const value = password ?? (await fetchClientPassword(client.id));
      if (await copyText(value)) {
        notifications.show({ color: 'green', message: 'Password copied to clipboard.' });
      }
    } catch (error) {
      notifyFailure('Could not read the password', error);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {serverJson(client.server, password)}
      </Code>
      {client.server.hasPassword && maySeeSecrets && (
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="light"
            leftSection={password === null ? <EyeIcon size={16} /> : <EyeOffIcon size={16} />}
            loading={busy === 'reveal'}
            onClick={() => void reveal()}
          >
            {password === null ? 'Reveal password' : 'Hide password'}
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<CopyIcon size={16} />}
            loading={busy === 'copy'}
            onClick={() => void copy()}
          >
            Copy password
          </Button>
        </Group>
      )}
    </>
  );
}
