import { isAPIError } from 'better-auth/api';
import type { Db } from '#server/db/database.ts';
import { appendEvent, type NewEvent } from '#server/realtime/event-log.ts';
import { afterRoutes } from './route-hook.ts';

/**
 * The audit trail of a person's own second factors: a passkey added or removed, authenticator
 * codes turned on or off, each a `person.second_factor_added` or `…_removed` event naming
 * which (`passkey`, `authenticator`), with the person as actor. Someone who took over a
 * session and added a passkey of their own shows there, as an administrator's reset does
 * (people-repository.ts). The event hub's poll carries them to administrators' streams.
 */
type Change = { kind: NewEvent['kind']; field: 'passkey' | 'authenticator' };

async function record(db: Db, user: { id: string; email: string }, change: Change) {
  await db.kysely.transaction().execute((trx) =>
    appendEvent(trx, db.dialect, {
      kind: change.kind,
      clientId: null,
      personId: user.id,
      actor: { id: user.id, name: user.email },
      fields: [change.field],
      at: new Date().toISOString(),
    }),
  );
}

/** Passkeys are the passkey plugin's own table, written by these routes only. */
const PASSKEY_ROUTES: ReadonlyMap<string, Change> = new Map([
  ['/passkey/verify-registration', { kind: 'person.second_factor_added', field: 'passkey' }],
  ['/passkey/delete-passkey', { kind: 'person.second_factor_removed', field: 'passkey' }],
]);

export function passkeyAudit(db: Db) {
  return afterRoutes('clients-manager-passkey-audit', PASSKEY_ROUTES.keys(), async (ctx) => {
    const returned: unknown = ctx.context.returned;
    const user = ctx.context.session?.user;
    if (isAPIError(returned) || returned instanceof Response || !user) return;
    await record(db, user, PASSKEY_ROUTES.get(ctx.path)!);
  });
}

/**
 * Better Auth's user update hook: codes are on once the first code is verified
 * (`/two-factor/verify-totp` sets `twoFactorEnabled`), off at `/two-factor/disable`. Only
 * those routes, so an administrator's reset (written directly) is not recorded twice.
 */
export async function recordCodesChange(
  db: Db,
  user: { id: string; email: string; twoFactorEnabled?: unknown },
  path: string | undefined,
): Promise<void> {
  if (path === '/two-factor/verify-totp' && user.twoFactorEnabled === true) {
    await record(db, user, { kind: 'person.second_factor_added', field: 'authenticator' });
  } else if (path === '/two-factor/disable' && user.twoFactorEnabled === false) {
    await record(db, user, { kind: 'person.second_factor_removed', field: 'authenticator' });
  }
}
