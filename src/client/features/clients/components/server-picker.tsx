import { Select } from '@mantine/core';
import type { Server } from '#shared/servers.ts';
import { serverAddress } from '#client/lib/server-status.ts';

/** Which of the client's servers the commands are for; the primary one unless picked. */
export function ServerPicker({
  servers,
  value,
  onChange,
}: {
  servers: readonly Server[];
  value: string | undefined;
  onChange: (serverId: string) => void;
}) {
  const primary = servers.find((server) => server.primary);
  return (
    <Select
      label="Commands for server"
      size="sm"
      maw={420}
      allowDeselect={false}
      data={servers.map((server) => ({
        value: server.id,
        label: `${server.label}${server.primary ? ' (primary)' : ''}: ${serverAddress(server)}`,
      }))}
      value={value ?? primary?.id ?? null}
      onChange={(id) => {
        if (id) onChange(id);
      }}
    />
  );
}
