import { betterAuth } from 'better-auth';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';

/**
 * The bridge (auth-routes.ts) sets this header from the socket's address, replacing anything a
 * client sent, so rate limits and session records see the real address and cannot be dodged
 * by a forged X-Forwarded-For.
 */
export const CLIENT_IP_HEADER = 'x-clients-manager-client-ip';
import { resetPasswordMail, verifyEmailMail } from '../mail/templates.ts';

export interface AuthOptions {
  db: Db;
  publicUrl: string;
  secret: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

/**
 * Better Auth: email + password with required verification and password reset, database
 * sessions in http-only cookies. Social and OpenID providers are added to `socialProviders`
 * and `plugins` here when configured, so there is one place that decides who may sign in.
 */
export function createAuth({ db, publicUrl, secret, mailer, log }: AuthOptions) {
  return betterAuth({
    // Into our pino log (with its redaction) instead of the console. Better Auth passes only
    // a message and context objects, never a password.
    logger: {
      level: 'warn',
      log: (level, message, ...args) =>
        log[level]({ auth: args.length > 0 ? args : undefined }, message),
    },
    appName: 'Clients Manager',
    baseURL: publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [new URL(publicUrl).origin],
    database: { db: db.kysely, type: db.dialect },
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        await mailer.send(resetPasswordMail(user.email, url));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user, url }) {
        await mailer.send(verifyEmailMail(user.email, url));
      },
    },
    session: {
      expiresIn: 7 * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
    },
    // Off by default outside production; on here so every environment (and every test)
    // sees the behaviour production has.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 10 },
        '/request-password-reset': { window: 60, max: 5 },
        '/send-verification-email': { window: 60, max: 5 },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: publicUrl.startsWith('https:'),
      cookiePrefix: 'cm',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
