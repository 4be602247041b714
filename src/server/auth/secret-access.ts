import { can } from '#shared/people.ts';
import { scopeAllows } from '#shared/tokens.ts';
import type { ClientCommand } from '#shared/clients.ts';
import { HttpError } from '#server/http/http-error.ts';
import type { SignedInUser } from './session-guard.ts';

/** The answer to someone whose role has no `secret` permission asking for a secret. */
export const SECRET_REFUSED_MESSAGE = 'Your role may not read secrets';

/**
 * Whether this request may be given a secret: the person's role allows it, and so does the
 * scope of the API token it came with, if any (such a use is then marked for the audit trail).
 */
export function maySeeSecrets(user: Pick<SignedInUser, 'role' | 'token'>): boolean {
  if (!can(user.role, 'secret')) return false;
  if (!user.token) return true;
  if (!scopeAllows(user.token.scope, 'secret')) return false;
  user.token.secretUsed = true;
  return true;
}

/** Refuses (403) a person whose role may not read secrets, for a route that reads some. */
export function requireSecretPermission(user: Pick<SignedInUser, 'role' | 'token'>): void {
  if (!maySeeSecrets(user)) throw new HttpError(403, SECRET_REFUSED_MESSAGE);
}

/**
 * The commands a person may be given: the deployment command carries their access token, a
 * secret, so a role without `secret` gets the SSH command only (it holds nothing secret).
 */
export function commandsFor(
  user: Pick<SignedInUser, 'role' | 'token'>,
  commands: readonly ClientCommand[],
): ClientCommand[] {
  return maySeeSecrets(user) ? [...commands] : commands.filter((c) => c.id !== 'deploy');
}
