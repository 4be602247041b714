import { can } from '#shared/people.ts';
import type { ClientCommand } from '#shared/clients.ts';
import { HttpError } from '#server/http/http-error.ts';
import type { SignedInUser } from './session-guard.ts';

/** The answer to someone whose role has no `secret` permission asking for a secret. */
export const SECRET_REFUSED_MESSAGE = 'Your role may not read secrets';

/** Refuses (403) a person whose role may not read secrets, for a route that reads some. */
export function requireSecretPermission(user: Pick<SignedInUser, 'role'>): void {
  if (!can(user.role, 'secret')) throw new HttpError(403, SECRET_REFUSED_MESSAGE);
}

/**
 * The commands a person may be given: the deployment command carries their access token, a
 * secret, so a role without `secret` gets the SSH command only (it holds nothing secret).
 */
export function commandsFor(
  user: Pick<SignedInUser, 'role'>,
  commands: readonly ClientCommand[],
): ClientCommand[] {
  return can(user.role, 'secret') ? [...commands] : commands.filter((c) => c.id !== 'deploy');
}
