import { isAPIError } from 'better-auth/api';
import type { Db } from '#server/db/database.ts';
import { afterRoutes } from './route-hook.ts';

export const PASSKEY_REGISTERED_ALREADY_MESSAGE = 'This passkey is registered already';

/**
 * A passkey's credential ID is what a sign-in finds it by, alone (the passkey plugin's lookup
 * is unordered, its index not unique): a second person's registration carrying an ID that is
 * stored, behind a key of their own, would make which key a sign-in checks a matter of row
 * order. The ID stored is the authenticator data's, which the plugin does not compare with the
 * answer's `id`, so it is checked once stored: the newer row goes and the registration is
 * refused. Placed before the audit's hook, which then records nothing (second-factor-audit.ts).
 */
export function passkeyCredentialOnce(db: Db) {
  return afterRoutes(
    'clients-manager-passkey-credential-once',
    ['/passkey/verify-registration'],
    async (ctx) => {
      const returned: unknown = ctx.context.returned;
      if (isAPIError(returned) || returned instanceof Response) return;
      const { id, credentialID } = (returned ?? {}) as { id?: unknown; credentialID?: unknown };
      if (typeof id !== 'string' || typeof credentialID !== 'string') return;
      const earlier = await db.kysely
        .selectFrom('passkey')
        .select('id')
        .where('credentialID', '=', credentialID)
        .where('id', '!=', id)
        .executeTakeFirst();
      if (!earlier) return;
      await db.kysely.deleteFrom('passkey').where('id', '=', id).execute();
      return Response.json(
        { code: 'PASSKEY_REGISTERED_ALREADY', message: PASSKEY_REGISTERED_ALREADY_MESSAGE },
        { status: 409 },
      );
    },
  );
}
