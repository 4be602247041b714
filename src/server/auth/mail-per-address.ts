import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/** Mails the sign-in screens may send one address in MAIL_WINDOW_MS. */
export const MAILS_PER_ADDRESS = 5;
export const MAIL_WINDOW_MS = 60 * 60 * 1000;

/**
 * Whether the sign-in screens may mail `address` once more now, counting it if so. Better Auth
 * limits sign-up, sign-in, reset and verification requests per client address, and each of
 * those can mail the account's address (a sign-in of an unconfirmed account sends its link
 * again): within those limits one machine could have the server mail one person thousands of
 * times a day. Counted in the rateLimit table beside Better Auth's own counts (every instance
 * together, across restarts), under a hash of the address, in one statement: the first mail
 * starts a window, and its count goes on rising while refused until the window has passed.
 */
export async function mayMailAddress(
  db: Kysely<Database>,
  address: string,
  now = Date.now(),
): Promise<boolean> {
  const key = `mail:${createHash('sha256').update(address.trim().toLowerCase()).digest('hex')}`;
  const { count } = await db
    .insertInto('rateLimit')
    .values({ id: randomUUID(), key, count: 1, lastRequest: now })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => {
        const ended = eb('rateLimit.lastRequest', '<=', now - MAIL_WINDOW_MS);
        return {
          count: eb
            .case()
            .when(ended)
            .then(1)
            .else(eb('rateLimit.count', '+', 1))
            .end(),
          lastRequest: eb.case().when(ended).then(now).else(eb.ref('rateLimit.lastRequest')).end(),
        };
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(count) <= MAILS_PER_ADDRESS;
}
