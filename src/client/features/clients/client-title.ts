import type { Client } from '#shared/clients.ts';

/** "name (code)", as the original listed clients; either part may still be empty. */
export function clientTitle(client: Pick<Client, 'name' | 'code'>): string {
  const name = client.name.trim() || 'Unnamed client';
  return client.code.trim() ? `${name} (${client.code.trim()})` : name;
}
