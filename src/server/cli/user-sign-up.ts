import pino from 'pino';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/database.ts';
import type { Mailer } from '#server/mail/mailer.ts';
import { createAuth } from '#server/auth/auth.ts';
import { INVITATION_REQUIRED_CODE } from '#server/auth/invited-sign-up.ts';

/** Accounts made here are verified already, so the sign-up mail has nothing to say. */
const noMail: Mailer = { send: async () => {}, close: () => {} };

/**
 * Signs a person up with a password through Better Auth, as the sign-up page does: the server's
 * own rules apply (allowlists, pending invitations, the first person an admin). Null when done;
 * else why not, worded for an operator.
 */
export async function signUpWithPassword(
  parts: { db: Db; config: Config; secretKey: string },
  person: { email: string; password: string; name: string },
): Promise<string | null> {
  const log = pino({ level: 'warn' }, process.stderr);
  const auth = createAuth({ ...parts, mailer: noMail, log });
  try {
    await auth.api.signUpEmail({ body: person });
    return null;
  } catch (error) {
    const body = (error as { body?: { code?: string; message?: string } }).body;
    // The sign-up hook's refusal is worded for the sign-up page; an operator gets their own.
    if (body?.code === INVITATION_REQUIRED_CODE) {
      return `${person.email} has a pending invitation: let them sign up through its link, or revoke it in People first.`;
    }
    return body?.message ?? (error as Error).message;
  }
}
