import { useState } from 'react';
import { Stack } from '@mantine/core';
import { CommandList } from '#client/components/command-list.tsx';
import { useClientServers } from '#client/lib/server-queries.ts';
import { ServerPicker } from './server-picker.tsx';

/**
 * The client's commands, for its primary server unless another is picked; the picker only
 * shows when there is a choice.
 */
export function ClientCommands({ clientId }: { clientId: string }) {
  const servers = useClientServers(clientId);
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const list = servers.data ?? [];
  const pickedServer = list.find((server) => server.id === picked);
  // The primary's commands are the ones asked for without a server (one cache entry for both);
  // a picked server that was removed meanwhile falls back to the primary.
  const serverId = pickedServer && !pickedServer.primary ? pickedServer.id : undefined;

  return (
    <Stack gap="sm">
      {list.length > 1 && (
        <ServerPicker servers={list} value={pickedServer?.id} onChange={setPicked} />
      )}
      <CommandList clientId={clientId} serverId={serverId} />
    </Stack>
  );
}
