import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { FastifyBaseLogger } from 'fastify';
import { displayNameText, listViewSchema } from '#shared/account.ts';
import {
  ACCOUNT_DISABLED_CODE,
  EMAIL_NOT_ALLOWED_CODE,
  EMAIL_NOT_VERIFIED_BY_PROVIDER_CODE,
} from '#shared/api-error.ts';
import { STORABLE_MESSAGE } from '#shared/clients.ts';
import { EMAIL_MAX_LENGTH, EMAIL_TOO_LONG_MESSAGE } from '#shared/people-admin.ts';
import { RECENT_SIGN_IN_MINUTES } from '#shared/second-factors.ts';
import type { Config } from '#server/config.ts';
import { betterAuthSecret } from '#server/secrets.ts';
import { unstorablePaths } from '#server/http/storable-input.ts';
import type { Db } from '#server/db/database.ts';
import { fromBool, toBool } from '#server/db/codec.ts';
import type { Mail, Mailer } from '#server/mail/mailer.ts';
import { resetPasswordMail, verifyEmailMail } from '#server/mail/templates.ts';
import { isEmailAllowed, notAllowedMessage, type Allowlist } from './allowlist.ts';
import {
  acceptInvitation,
  checkInvitedSignUp,
  invitedUserData,
  recordSignIn,
} from './invited-sign-up.ts';
import {
  forgetPendingSecondFactorSignIns,
  forgetPendingSignInsOnPasswordChange,
} from './pending-second-factor.ts';
import {
  refusePasswordSignInOfPasskeyHolder,
  secondFactorPlugins,
  secondFactorRateLimits,
} from './second-factors.ts';
import { storableDisplayName } from './display-name.ts';
import { forgetTrustedDevices } from './trusted-devices.ts';
import { forgetPasswordResetLinks } from './reset-links.ts';
import { CONFIRM_EMAIL_PATH, confirmEmailByPassword, confirmEmailLink } from './confirm-email.ts';
import { roleForNewUser } from './first-admin.ts';
import { passkeyAudit, recordCodesChange } from './second-factor-audit.ts';
import { passkeyCredentialOnce } from './passkey-credential-once.ts';
import { withoutProviderTokens } from './provider-tokens.ts';
import { refuseOffAppRedirects } from './redirect-targets.ts';
import { signUpWillCreateUser } from './sign-up-check.ts';
import { mayMailAddress } from './mail-per-address.ts';

/**
 * The bridge (auth-routes.ts) sets this header from the socket's address, replacing anything a
 * client sent, so rate limits and session records see the real address and cannot be dodged
 * by a forged X-Forwarded-For.
 */
export const CLIENT_IP_HEADER = 'x-clients-manager-client-ip';

export const ACCOUNT_DISABLED_MESSAGE =
  'This account is disabled. Ask an administrator if you think that is a mistake.';

export interface AuthOptions {
  db: Db;
  config: Pick<
    Config,
    | 'publicUrl'
    | 'providers'
    | 'allowedEmailDomains'
    | 'allowedEmails'
    | 'authRateLimitPerMinute'
    | 'defaultRole'
    | 'require2fa'
  >;
  /** SECRET_KEY (or the generated key); Better Auth gets a key derived from it. */
  secretKey: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** How passwords are hashed and checked; unset, as in production: Better Auth's scrypt. */
  passwordHashing?: PasswordHashing;
}

/** Better Auth's `emailAndPassword.password`: the one place a password is hashed or checked. */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(data: { hash: string; password: string }): Promise<boolean>;
}

/**
 * Better Auth: email + password with required verification and password reset, Google and any
 * OpenID Connect provider through discovery (one code path: genericOAuth), database sessions in
 * http-only cookies. The one place that decides who may enter: `validateUserInfo` runs before
 * every new user, every account link and every provider sign-in; the session hook covers
 * returning email sign-ins and disabled users.
 */
export function createAuth({ db, config, secretKey, mailer, log, passwordHashing }: AuthOptions) {
  /** Sends a sign-in screen's mail unless its address has had its share (mail-per-address.ts). */
  async function sendWithinLimit(mail: Mail, what: string): Promise<void> {
    if (!(await mayMailAddress(db.kysely, mail.to))) {
      log.warn({ to: mail.to }, `${what} not sent: too many to this address`);
      return;
    }
    await mailer.send(mail);
  }
  const { publicUrl, providers } = config;
  // Per client address. Staff behind one office NAT share it: raise it there.
  const perMinute = config.authRateLimitPerMinute;
  const allowlist: Allowlist = {
    domains: config.allowedEmailDomains,
    emails: config.allowedEmails,
  };
  return betterAuth({
    // Into our pino log (with its redaction) instead of the console. Better Auth passes only
    // a message and context objects, never a password.
    logger: {
      level: 'warn',
      log: (level, message, ...args) =>
        log[level]({ auth: args.length > 0 ? args : undefined }, message),
    },
    // An unexpected failure inside Better Auth reaches our error handler (http/error-handler.ts):
    // logged once through pino, with its redaction and the request's id, and answered as every
    // 500 is (503 while the database is unreachable). Without it better-call also printed the
    // error raw to stderr. Its refusals (4xx) and redirects are answered by it as before.
    onAPIError: { throw: true },
    appName: 'Clients Manager',
    baseURL: publicUrl,
    basePath: '/api/auth',
    secret: betterAuthSecret(secretKey),
    trustedOrigins: [new URL(publicUrl).origin],
    database: { db: db.kysely, type: db.dialect },
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      ...(passwordHashing ? { password: passwordHashing } : {}),
      // A sign-in stopped at the code step with the old password must not finish after it, no
      // browser trusted before skips the code with the new one, and no other reset link sets
      // another. The person's API tokens stay: each is revoked on its own in Settings.
      async onPasswordReset({ user }) {
        await forgetPendingSecondFactorSignIns(db.kysely, user.id);
        await forgetTrustedDevices(db.kysely, user.id);
        await forgetPasswordResetLinks(db.kysely, user.id);
      },
      // Not awaited: the answer must take as long for an unknown address (no mail) as for a
      // known one, or its timing tells who has an account.
      sendResetPassword({ user, url }) {
        sendWithinLimit(resetPasswordMail(user.email, url), 'password-reset mail').catch(
          (error: unknown) =>
            log.error({ err: error, to: user.email }, 'password-reset mail not sent'),
        );
        return Promise.resolve();
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      expiresIn: 24 * 60 * 60,
      // The link opens the page that asks for the sign-up's password (confirm-email.ts), not
      // Better Auth's /verify-email, which verified and signed in whoever opened it.
      async sendVerificationEmail({ user, token }) {
        const url = confirmEmailLink(publicUrl, token);
        // An invited person's address is verified at sign-up (invited-sign-up.ts).
        if (user.emailVerified) return;
        // Without SMTP the link goes to the log only while nobody has verified yet: the first
        // person of a new installation has no other way in, and later, whoever reads the log
        // could verify an account that someone else is signing up. The outbox file has it.
        const firstUser = (await countVerifiedUsers(db)) === 0;
        await sendWithinLimit(
          { ...verifyEmailMail(user.email, url), linkInLog: firstUser },
          'verification mail',
        );
      },
    },
    user: {
      additionalFields: {
        disabled: { type: 'boolean', required: false, defaultValue: false, input: false },
        // Set by the web app with updateUser; a refused value is a 400 whose message names it.
        listView: {
          type: 'string',
          required: false,
          defaultValue: 'list',
          input: true,
          validator: { input: listViewSchema },
        },
        // Set by administrators through the People routes, never by the person.
        role: { type: 'string', required: false, defaultValue: config.defaultRole, input: false },
        tags: { type: 'string', required: false, input: false },
      },
      validateUserInfo({ user, source }) {
        const email = typeof user.email === 'string' ? user.email : '';
        if (!isEmailAllowed(email, allowlist)) {
          return { error: EMAIL_NOT_ALLOWED_CODE, errorDescription: notAllowedMessage(email) };
        }
        // A provider that has not verified the address would make an account nobody has shown
        // to be theirs: the address's owner, confirming it later, would take over an account
        // that whoever signed in made, with their provider account and passkeys on it.
        const byProvider = source.method !== 'email-password';
        if (byProvider && source.action === 'create-user' && user.emailVerified !== true) {
          return {
            error: EMAIL_NOT_VERIFIED_BY_PROVIDER_CODE,
            errorDescription: 'The provider has not verified this email address',
          };
        }
      },
    },
    hooks: {
      // validateUserInfo also refuses these, but email sign-up then answers like a success
      // (Better Auth hides whether an address exists). A refused person must be told why, and
      // the lists reveal nothing about any one account, so say it before sign-up starts.
      before: createAuthMiddleware(async (ctx) => {
        // Every query and body that says where to send the browser, on every route, and on the
        // target as the browser will resolve it (redirect-targets.ts).
        refuseOffAppRedirects(ctx, publicUrl);
        // PostgreSQL refuses NUL in text: without this, a name with one failed deep in the
        // user insert as "Failed to create user", and a callback's state in its lookup, each
        // with an error in the log. The same check as every other route's (storable-input.ts).
        const [where] = [...unstorablePaths(ctx.query), ...unstorablePaths(ctx.body)];
        if (where) {
          throw new APIError('BAD_REQUEST', {
            code: 'INVALID_TEXT',
            message: `${where.join('.')}: ${STORABLE_MESSAGE}`,
          });
        }
        // Better Auth's update-user takes any JSON for these: an array or a boolean failed the
        // SQLite insert (500) and was stored as garbage by PostgreSQL. An image of null removes
        // the picture, as Better Auth documents.
        const body = (ctx.body ?? {}) as { name?: unknown; image?: unknown };
        for (const field of ['name', 'image'] as const) {
          const value = body[field];
          if (value === undefined || typeof value === 'string') continue;
          if (field === 'image' && value === null) continue;
          throw new APIError('BAD_REQUEST', {
            code: 'INVALID_TEXT',
            message: `${field}: Must be text`,
          });
        }
        // A display name is shown on every screen, in every session list and by
        // `npm run user -- list` in an operator's terminal: checked as Better Auth will store it,
        // untrimmed, by the rule the forms use.
        const name = typeof body.name === 'string' ? displayNameText.safeParse(body.name) : null;
        if (name && !name.success) {
          const message = `name: ${name.error.issues[0]!.message}`;
          throw new APIError('BAD_REQUEST', { code: 'INVALID_NAME', message });
        }
        // Better Auth also signs in (and links) with a provider's ID token posted as is, checked
        // only for signature, issuer and audience, the nonce only if the poster sends one: any
        // still-valid token for this client ID, from wherever it was taken, would be a sign-in.
        // Only the code flow (state, PKCE, the code exchanged by this server) signs anyone in.
        if (
          (ctx.path === '/sign-in/social' || ctx.path === '/link-social') &&
          (ctx.body as { idToken?: unknown } | undefined)?.idToken !== undefined
        ) {
          throw new APIError('BAD_REQUEST', {
            code: 'ID_TOKEN_SIGN_IN_OFF',
            message: "Sign in through the provider's own page: an ID token is not taken here",
          });
        }
        if (ctx.path !== '/sign-up/email') return;
        const email: unknown = (ctx.body as { email?: unknown } | undefined)?.email;
        if (typeof email !== 'string') return;
        // Invitations take no longer address either; a longer one is no one's, and would be
        // stored and mailed as it is (people-admin.ts).
        if (email.length > EMAIL_MAX_LENGTH) {
          throw new APIError('BAD_REQUEST', {
            code: 'INVALID_EMAIL',
            message: `email: ${EMAIL_TOO_LONG_MESSAGE}`,
          });
        }
        if (!isEmailAllowed(email, allowlist)) {
          throw new APIError('FORBIDDEN', {
            code: EMAIL_NOT_ALLOWED_CODE,
            message: notAllowedMessage(email),
          });
        }
        await checkInvitedSignUp(db, ctx.body);
        // Account pre-takeover: whoever signed up an address first would otherwise keep their
        // password through the owner's later sign-up, and the owner's click on the only link
        // (sent by the first sign-up) would verify the first comer's account. A sign-up of an
        // address that nobody verified yet starts over instead: the pending user is removed and
        // made anew with this password, and every link sent before names a user id that no
        // longer exists, which /confirm-email refuses (confirm-email.ts).
        const pending = await ctx.context.internalAdapter.findUserByEmail(email);
        if (pending && !pending.user.emailVerified && (await signUpWillCreateUser(ctx))) {
          await ctx.context.internalAdapter.deleteUser(pending.user.id);
        }
      }),
    },
    account: {
      // A provider account joins an existing user of the same email only when the provider
      // says it verified that email; no provider is trusted to skip that.
      accountLinking: { enabled: true, trustedProviders: [], allowDifferentEmails: false },
    },
    databaseHooks: {
      account: {
        create: { before: async (account) => withoutProviderTokens(account) },
        update: { before: async (account) => withoutProviderTokens(account) },
      },
      user: {
        create: {
          // The first person of a new installation to prove their address is its
          // administrator (first-admin.ts); an invited person gets the role and tags of their
          // invitation. A provider's name is made one a form would take.
          async before(user, ctx) {
            const role = await roleForNewUser(db, config.defaultRole, {
              byEmailSignUp: ctx?.path === '/sign-up/email',
            });
            const invited = await invitedUserData(db, user, ctx?.body);
            const name = storableDisplayName(user.name);
            return { data: { ...user, name, role, ...invited } };
          },
          async after(user, ctx) {
            await acceptInvitation(db, user, ctx?.body);
          },
        },
        update: {
          async after(user, ctx) {
            await recordCodesChange(db, user, ctx?.path);
          },
        },
      },
      session: {
        create: {
          async before(session, ctx) {
            const user = await db.kysely
              .selectFrom('user')
              .select(['email', 'disabled', 'twoFactorEnabled'])
              .where('id', '=', session.userId)
              .executeTakeFirst();
            if (!user) return false;
            if (user.disabled === true || user.disabled === 1) {
              throw new APIError('FORBIDDEN', {
                code: ACCOUNT_DISABLED_CODE,
                message: ACCOUNT_DISABLED_MESSAGE,
              });
            }
            // The lists may have changed since this user signed up.
            if (!isEmailAllowed(user.email, allowlist)) {
              throw new APIError('FORBIDDEN', {
                code: EMAIL_NOT_ALLOWED_CODE,
                message: notAllowedMessage(user.email),
              });
            }
            await refusePasswordSignInOfPasskeyHolder(
              db,
              config.require2fa,
              { userId: session.userId, twoFactorEnabled: toBool(user.twoFactorEnabled) },
              ctx?.path,
            );
          },
          async after(session) {
            await recordSignIn(db, session.userId);
          },
        },
      },
    },
    // These routes hand a provider's tokens to any script of a signed-in page; none is stored
    // (provider-tokens.ts) and the web app uses none, so they stay off. So does the bare
    // password check: unused, and a session could guess the password there faster than at
    // any route limited as a sign-in.
    disabledPaths: [
      '/get-access-token',
      '/refresh-token',
      '/account-info',
      '/verify-password',
      // Replaced by /confirm-email, which asks for the password chosen at sign-up.
      '/verify-email',
    ],
    // A reset link's token is stored as its SHA-256 (base64url), so a backup or a copy of the
    // database holds no token that sets a password. Only that kind: the others are useless
    // without SECRET_KEY (their cookies are signed with it) and this app deletes them by their
    // prefixes (`2fa-`, `trust-device-`). Migration 0018 hashed those stored before.
    verification: {
      storeIdentifier: { default: 'plain', overrides: { 'reset-password:': 'hashed' } },
    },
    session: {
      expiresIn: 7 * 24 * 60 * 60,
      // The refresh (moving the expiry) is what a device's "Last active" shows, in Settings and
      // on People: hourly keeps it right to the hour, for one more getSession a session an hour.
      updateAge: 60 * 60,
      // What Better Auth calls a fresh session, which adding a passkey requires (unlinking a
      // provider and its own session list too, neither of which the web app uses): signed in
      // within these minutes, not merely refreshed (second-factors.ts says why). Making an API
      // token asks the same of the session (auth/recent-sign-in.ts).
      freshAge: RECENT_SIGN_IN_MINUTES * 60,
    },
    // Off by default outside production; on here so every environment (and every test)
    // sees the behaviour production has.
    rateLimit: {
      enabled: true,
      // In the database rather than in memory: every instance counts together, and the count
      // survives a restart.
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: perMinute },
        '/sign-in/social': { window: 60, max: perMinute * 2 },
        '/sign-up/email': { window: 60, max: perMinute },
        // Asks for the current password: as guessable as a sign-in.
        '/change-password': { window: 60, max: perMinute },
        '/request-password-reset': { window: 60, max: Math.max(1, Math.floor(perMinute / 2)) },
        '/send-verification-email': { window: 60, max: Math.max(1, Math.floor(perMinute / 2)) },
        // Checks the password chosen at sign-up.
        [CONFIRM_EMAIL_PATH]: { window: 60, max: perMinute },
        ...secondFactorRateLimits(perMinute),
      },
    },
    plugins: [
      genericOAuth({
        config: providers.map((p) => ({
          providerId: p.id,
          name: p.name,
          discoveryUrl: `${p.issuer}/.well-known/openid-configuration`,
          clientId: p.clientId,
          clientSecret: p.clientSecret,
          scopes: ['openid', 'email', 'profile'],
          pkce: true,
          requireIdTokenVerification: true,
          // Signing out ends the app's session only. Better Auth would otherwise answer sign-out
          // with the issuer's end-session URL for the browser to follow, an ID token in it.
          disableProviderLogout: true,
        })),
      }),
      confirmEmailByPassword(db),
      // Before the audit: a registration it refuses records nothing.
      passkeyCredentialOnce(db),
      passkeyAudit(db),
      ...secondFactorPlugins(db, publicUrl),
      forgetPendingSignInsOnPasswordChange(db.kysely),
    ],
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: publicUrl.startsWith('https:'),
      cookiePrefix: 'cm',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

async function countVerifiedUsers(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('user')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('emailVerified', '=', fromBool(true, db.dialect))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
