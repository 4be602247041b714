import type { Client } from '#shared/clients.ts';
import type { Session } from './test-server.ts';

/**
 * A copy of the client `originalId`, made by `as` and then given `tags`: a copy that went on to
 * other tags than its original's, as a template's copies do.
 */
export async function copyGivenTags(
  as: Session,
  originalId: string,
  tags: string[],
): Promise<Client> {
  const copy = await as.json<Client>('POST', `/api/clients/${originalId}/duplicate`);
  if (copy.status !== 201) throw new Error(`duplicate answered ${copy.status}`);
  const moved = await as.json<Client>('PUT', `/api/clients/${copy.body.id}`, {
    name: copy.body.name,
    tags,
    version: copy.body.version,
  });
  if (moved.status !== 200) throw new Error(`PUT answered ${moved.status}`);
  return moved.body;
}
