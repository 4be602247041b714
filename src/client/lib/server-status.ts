import type { Server } from '#shared/servers.ts';
import { formatDateTime } from './history-text.ts';

export interface StatusLook {
  color: 'green' | 'red' | 'gray';
  /** The badge's words. */
  label: string;
  /** What the badge cannot hold: the reason of a failure. */
  detail: string | null;
}

/** How a server's last check is shown: green reachable, red trouble, grey not known yet. */
export function statusLook(server: Pick<Server, 'status' | 'reason' | 'statusSince'>): StatusLook {
  switch (server.status) {
    case 'reachable':
      return { color: 'green', label: 'Reachable', detail: null };
    case 'unreachable':
      return {
        color: 'red',
        label: server.statusSince
          ? `Unreachable since ${formatDateTime(server.statusSince)}`
          : 'Unreachable',
        detail: server.reason,
      };
    case 'host_key_changed':
      return { color: 'red', label: 'Host key changed', detail: server.reason };
    case 'not_checked':
      return { color: 'gray', label: 'Not checked', detail: null };
  }
}

/** `user@host:port`, as a person reads an SSH address. */
export function serverAddress(server: Pick<Server, 'username' | 'host' | 'port'>): string {
  const host = server.host || '(no host)';
  return `${server.username ? `${server.username}@` : ''}${host}:${server.port}`;
}

export const STATUS_FILTERS = [
  { value: '', label: 'All' },
  { value: 'reachable', label: 'Reachable' },
  { value: 'unreachable', label: 'Unreachable' },
  { value: 'host_key_changed', label: 'Host key changed' },
  { value: 'not_checked', label: 'Not checked' },
] as const;
