import { passkey } from '@better-auth/passkey';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins/two-factor';
import type { BetterAuthPlugin } from 'better-auth';
import {
  SECOND_FACTOR_REQUIRED_CODE,
  SESSION_NOT_FRESH_CODE,
  WRONG_SECOND_FACTOR_CODE,
  WRONG_SECOND_FACTOR_MESSAGE,
} from '#shared/api-error.ts';
import {
  PASSKEY_NEEDS_RECENT_SIGN_IN,
  PASSKEY_NOT_USER_VERIFIED_MESSAGE,
  TRUST_DEVICE_DAYS,
} from '#shared/second-factors.ts';
import type { Db } from '#server/db/database.ts';
import { HttpError } from '#server/http/http-error.ts';
import type { SignedInUser } from './session-guard.ts';
import { oneSetOfCodes } from './one-set-of-codes.ts';
import { oneUseCodes } from './one-use-codes.ts';
import { forgetTrustOnAccountChange } from './trusted-devices.ts';
import { afterRoutes } from './route-hook.ts';

/** The name authenticator apps show next to the codes, and the passkey's relying party. */
const APP_NAME = 'Clients Manager';

/** The routes that check a code of a person who is signing in. */
const CODE_ROUTES: ReadonlySet<string> = new Set([
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
]);

/**
 * Better Auth's refusals of a wrong code at the code step ("Invalid code", "Invalid backup
 * code"). Answered as one, so a refusal never says which of the person's factors it tried.
 */
const WRONG_CODE_ERRORS: ReadonlySet<string> = new Set(['INVALID_CODE', 'INVALID_BACKUP_CODE']);

/**
 * Second factors: an authenticator app's codes (TOTP) with ten single-use backup codes, and
 * passkeys (WebAuthn). Better Auth keeps the TOTP secret and backup codes encrypted with its
 * secret, and a passkey's public key only. A passkey sign-in is itself two factors (the device
 * and its unlock), so it does not ask for a code.
 */
export function secondFactorPlugins(db: Db, publicUrl: string) {
  const url = new URL(publicUrl);
  return [
    twoFactor({
      issuer: APP_NAME,
      backupCodeOptions: { amount: 10 },
      trustDeviceMaxAge: TRUST_DEVICE_DAYS * 24 * 60 * 60,
    }),
    // The relying party is this installation's host: a passkey works only on the address it
    // was made on (WebAuthn refuses an IP address there, so PUBLIC_URL needs a host name).
    passkey({
      rpID: url.hostname,
      rpName: APP_NAME,
      origin: url.origin,
      // A passkey is made only on a device that checks its person (PIN, fingerprint, face):
      // a sign-in with it must be able to (passkeyUserVerification below).
      authenticatorSelection: { userVerification: 'required' },
    }),
    oneUseCodes(db),
    oneSetOfCodes(),
    neutralCodeErrors(),
    passkeyRegistrationRefusal(),
    passkeyUserVerification(),
    forgetTrustOnAccountChange(db.kysely),
  ] as const;
}

function neutralCodeErrors() {
  return afterRoutes('clients-manager-neutral-code-errors', CODE_ROUTES, async (ctx) => {
    const returned: unknown = ctx.context.returned;
    if (isAPIError(returned) && WRONG_CODE_ERRORS.has(returned.body?.code ?? '')) {
      throw new APIError('UNAUTHORIZED', {
        code: WRONG_SECOND_FACTOR_CODE,
        message: WRONG_SECOND_FACTOR_MESSAGE,
      });
    }
  });
}

/**
 * Better Auth's passkey registration answers anything its WebAuthn check throws as a 500
 * FAILED_TO_VERIFY_REGISTRATION, a body such as `{"response":"x"}` included: the request is at
 * fault, so it is a 400 with the same code and message. Better Auth logs what was thrown
 * ("Failed to verify registration"), so a fault of the server's there still shows in the log.
 * An error thrown by an after-hook is sent with the status of the route's own error, so the
 * hook answers with a whole response instead.
 */
function passkeyRegistrationRefusal() {
  return {
    id: 'clients-manager-passkey-registration-refusal',
    hooks: {
      after: [
        {
          matcher: (context) => context.path === '/passkey/verify-registration',
          handler: createAuthMiddleware(async (ctx) => {
            const returned: unknown = ctx.context.returned;
            if (
              isAPIError(returned) &&
              returned.statusCode === 500 &&
              returned.body?.code === 'FAILED_TO_VERIFY_REGISTRATION'
            ) {
              const { code, message } = returned.body;
              return Response.json({ code, message }, { status: 400 });
            }
          }),
        },
        // A passkey lets its device in without the password and stays through a reset and a
        // sign-out everywhere, so adding one needs a sign-in from the last few minutes
        // (`session.freshAge`): a session taken over from an unlocked browser later cannot add
        // one of its own. Better Auth says only "Session is not fresh"; this says what to do.
        {
          matcher: (context) => PASSKEY_REGISTRATION_ROUTES.has(context.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const returned: unknown = ctx.context.returned;
            if (isAPIError(returned) && returned.body?.code === SESSION_NOT_FRESH_CODE) {
              return Response.json(
                { code: SESSION_NOT_FRESH_CODE, message: PASSKEY_NEEDS_RECENT_SIGN_IN },
                { status: 403 },
              );
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/**
 * A passkey sign-in makes a session without the password or a code: it stands for both only
 * when the device checked it was its person (the user-verified flag, WebAuthn §6.1), not
 * merely that someone touched it, as a security key without a PIN does. Better Auth asks for
 * that check only as "preferred" and accepts an answer without it, so the flag is read here,
 * from the authenticator data the device signed (its signature is Better Auth's to check).
 */
function passkeyUserVerification() {
  return {
    id: 'clients-manager-passkey-user-verification',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/passkey/verify-authentication',
          handler: createAuthMiddleware(async (ctx) => {
            // Before Better Auth checks the body: it may be missing, or JSON null.
            const body = ctx.body as
              | { response?: { response?: { authenticatorData?: unknown } } | null }
              | null
              | undefined;
            const data = body?.response?.response?.authenticatorData;
            if (typeof data !== 'string') return;
            const bytes = Buffer.from(data, 'base64url');
            // 32 bytes of the relying party's hash, then the flags; shorter is Better Auth's
            // to refuse as malformed.
            if (bytes.length < 37 || (bytes[32]! & USER_VERIFIED) !== 0) return;
            throw new APIError('UNAUTHORIZED', {
              code: 'PASSKEY_NOT_USER_VERIFIED',
              message: PASSKEY_NOT_USER_VERIFIED_MESSAGE,
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

const USER_VERIFIED = 0x04;

const PASSKEY_REGISTRATION_ROUTES: ReadonlySet<string> = new Set([
  '/passkey/generate-register-options',
  '/passkey/verify-registration',
]);

/**
 * Limits per client address on the routes that check a code or a passkey, as on sign-in with a
 * password: each wrong try is a guess. (Better Auth also locks a challenge after five wrong
 * codes, and a person's codes after ten in a row, for fifteen minutes.)
 */
export function secondFactorRateLimits(perMinute: number) {
  const rule = { window: 60, max: perMinute };
  return {
    '/two-factor/verify-totp': rule,
    '/two-factor/verify-backup-code': rule,
    // These check the password.
    '/two-factor/enable': rule,
    '/two-factor/disable': rule,
    '/two-factor/get-totp-uri': rule,
    '/two-factor/generate-backup-codes': rule,
    // One passkey sign-in asks for options, then verifies.
    '/passkey/generate-authenticate-options': { window: 60, max: perMinute * 2 },
    '/passkey/verify-authentication': rule,
  };
}

/**
 * REQUIRE_2FA: a person who signs in with a password and has neither an authenticator app nor
 * a passkey must set one up before anything else. Someone who signs in only through a provider
 * (Google, OpenID Connect) is left to that provider's own second factor: they have no
 * password account here. Only the routes a person needs for their own account stay open
 * (permission `self`: /api/me, which tells the web app to lead them to the set-up, and the
 * like, but not CLOSED_UNTIL_SECOND_FACTOR, which the guard leaves out of `ownAccount`);
 * setting a factor up is Better Auth's, under /api/auth, which the guard leaves alone.
 */
export function secondFactorGate(db: Db, require2fa: boolean) {
  return async function secondFactorRefusal(
    user: SignedInUser,
    ownAccount: boolean,
  ): Promise<HttpError | undefined> {
    if (!(await mustSetUpSecondFactor(db, require2fa, user))) return undefined;
    user.secondFactorRequired = true;
    if (ownAccount) return undefined;
    return new HttpError(403, 'Set up a second factor to continue', {
      code: SECOND_FACTOR_REQUIRED_CODE,
    });
  };
}

/** A password sign-in of a person who must use their passkey instead. */
export const PASSKEY_SIGN_IN_REQUIRED_CODE = 'PASSKEY_SIGN_IN_REQUIRED';
export const PASSKEY_SIGN_IN_REQUIRED_MESSAGE =
  'Sign in with your passkey: your second factor is a passkey, and this installation does not let a password alone in.';

/**
 * The sign-in routes at which Better Auth's twoFactor asks a person with codes on for a code
 * (it checks these three; only email is enabled here).
 */
const PASSWORD_SIGN_IN_PATHS: ReadonlySet<string> = new Set([
  '/sign-in/email',
  '/sign-in/username',
  '/sign-in/phone-number',
]);

/**
 * REQUIRE_2FA: a person whose second factor is a passkey signs in with it. Better Auth asks for
 * a code after the password only when codes are on, and a passkey cannot be asked for after a
 * password, so without this the password alone made a full session, one that could even set
 * up a new factor. Refused where twoFactor would ask for a code, after the password was
 * checked (as for a disabled account), so the answer says nothing to whoever lacks it. Called
 * by the session hook in auth.ts, before the session exists.
 */
export async function refusePasswordSignInOfPasskeyHolder(
  db: Db,
  require2fa: boolean,
  session: { userId: string; twoFactorEnabled: boolean },
  path: string | undefined,
): Promise<void> {
  if (!require2fa || session.twoFactorEnabled || !PASSWORD_SIGN_IN_PATHS.has(path ?? '')) return;
  const passkey = await db.kysely
    .selectFrom('passkey')
    .select('passkey.id')
    .where('passkey.userId', '=', session.userId)
    .executeTakeFirst();
  if (!passkey) return;
  throw new APIError('FORBIDDEN', {
    code: PASSKEY_SIGN_IN_REQUIRED_CODE,
    message: PASSKEY_SIGN_IN_REQUIRED_MESSAGE,
  });
}

async function mustSetUpSecondFactor(
  db: Db,
  require2fa: boolean,
  user: SignedInUser,
): Promise<boolean> {
  if (!require2fa || user.twoFactorEnabled) return false;
  const found = await db.kysely
    .selectFrom('account')
    .select('account.id')
    .where('account.userId', '=', user.id)
    .where('account.providerId', '=', 'credential')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('passkey').select('passkey.id').where('passkey.userId', '=', user.id))),
    )
    .executeTakeFirst();
  return found !== undefined;
}
