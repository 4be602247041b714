import { z } from 'zod';
import net from 'node:net';
import path from 'node:path';
import { validateTemplate } from '#shared/deploy-template.ts';
import type { Role } from '#shared/people.ts';

export const DEFAULT_DEPLOY_COMMAND_TEMPLATE =
  'pro-deploy run --token {accessToken} --server {serverTag}';

/** What an app runs on its server by default; `{uiDir}` is the app's directory. */
export const DEFAULT_APP_RUN_TEMPLATE =
  'cd {uiDir} && pro-deploy run --token {accessToken} --server {serverTag}';

const commandTemplate = (fallback: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .superRefine((value, ctx) => {
      const problem = validateTemplate(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** 127.0.0.0/8, ::1 or localhost: only this machine can connect. */
function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return net.isIPv4(host) && host.startsWith('127.');
}

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const port = z
  .string()
  .trim()
  .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
  .transform(Number)
  .refine((n) => n <= 65535, 'must be a whole number between 0 and 65535');

const httpsUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((u) => u.replace(/\/+$/, ''));

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item !== ''),
  );

export const DEFAULT_GOOGLE_ISSUER = 'https://accounts.google.com';

/** Replaced by `true` in the server bundle (vite.server.config.ts); unset when run from source. */
declare const __BUILT_SERVER__: boolean | undefined;
const BUILT_SERVER = typeof __BUILT_SERVER__ !== 'undefined' && __BUILT_SERVER__;

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  ),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  WEB_DIR: optionalText,
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .refine(
        (v) => /^(sqlite|file):/.test(v) || /^postgres(ql)?:\/\//.test(v),
        'must start with sqlite:, file: or postgres://',
      )
      .superRefine((value, ctx) => {
        const problem = databaseUrlProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  ),
  DATABASE_POOL_SIZE: z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number between 1 and 1000')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, 'must be a whole number between 1 and 1000')
    .default(10),
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .transform((v) => v.split(',').map((item) => item.trim()))
      .pipe(
        z.array(
          z
            .string()
            .refine(
              isAddressOrRange,
              'must be the addresses (or CIDR ranges) of your proxies, comma-separated',
            ),
        ),
      )
      .optional(),
  ),
  SECRET_KEY: optionalText.pipe(
    z.string().min(32, 'must be at least 32 characters (try: openssl rand -hex 32)').optional(),
  ),
  SMTP_URL: optionalText.pipe(
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  MAIL_FROM: z.string().trim().min(3).default('Clients Manager <no-reply@localhost>'),
  DEPLOY_COMMAND_TEMPLATE: commandTemplate(DEFAULT_DEPLOY_COMMAND_TEMPLATE),
  APP_RUN_TEMPLATE: commandTemplate(DEFAULT_APP_RUN_TEMPLATE),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: optionalText,
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_ISSUER: optionalText.pipe(httpsUrl.optional()),
  OIDC_ISSUER: optionalText.pipe(httpsUrl.optional()),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_NAME: optionalText,
  ALLOWED_EMAIL_DOMAINS: list.pipe(
    z.array(
      z
        .string()
        .transform((d) => d.replace(/^@/, ''))
        .pipe(
          z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'must be domain names such as example.com'),
        ),
    ),
  ),
  ALLOWED_EMAILS: list.pipe(z.array(z.email('must be email addresses'))),
  ALLOW_OPEN_SIGNUP: z
    .enum(['true', 'false', ''], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true'),
  AUTH_RATE_LIMIT_PER_MINUTE: z
    .string()
    .trim()
    .regex(/^[1-9]\d{0,5}$/, 'must be a whole number from 1 to 999999')
    .transform(Number)
    .default(10),
  API_TOKEN_RATE_LIMIT: z
    .string()
    .trim()
    .regex(/^[1-9]\d{0,5}$/, 'must be a whole number from 1 to 999999')
    .transform(Number)
    .default(600),
  DEFAULT_ROLE: z
    .enum(['admin', 'editor', 'viewer', ''], 'must be admin, editor or viewer')
    .default('editor')
    .transform((v) => (v === '' ? 'editor' : v)),
  REQUIRE_2FA: z
    .enum(['true', 'false', ''], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true'),
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false', ''], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true'),
  // A week at most: a longer wait overflows Node's timers.
  SERVER_CHECK_INTERVAL: z
    .string()
    .trim()
    .regex(/^\d{1,5}$/, 'must be a whole number of minutes from 0 (off) to 10080')
    .transform(Number)
    .refine((n) => n <= 10080, 'must be a whole number of minutes from 0 (off) to 10080')
    .default(15),
});

/** An OpenID Connect provider people can sign in with (Google is one, found by discovery). */
export interface OidcProviderConfig {
  id: 'google' | 'oidc';
  /** The button says 'Log in with {name}'. */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  /** `poolSize`: connections this instance keeps open at most (DATABASE_POOL_SIZE). */
  | { kind: 'postgres'; url: string; poolSize: number };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** The built web app to serve; unset: dist/client of this checkout. */
  webDir: string | undefined;
  database: DatabaseTarget;
  /** Unset: a key is generated into DATA_DIR on first start (see secret-key.ts). */
  secretKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  deployCommandTemplate: string;
  /** An app's run command when it sets none of its own. */
  appRunTemplate: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /**
   * The level of the two lines Fastify writes per request: `debug` in production
   * (NODE_ENV=production, or the built server of `npm start`), `info` in development.
   */
  requestLogLevel: 'info' | 'debug';
  providers: OidcProviderConfig[];
  /** Empty lists on both: anyone who can reach the server may sign up. */
  allowedEmailDomains: string[];
  allowedEmails: string[];
  /** Sign-in and sign-up attempts a minute per client address (others scale from it). */
  authRateLimitPerMinute: number;
  /** Requests a minute per personal API token. */
  apiTokenRateLimitPerMinute: number;
  /**
   * The reverse proxies whose X-Forwarded-For names the client (addresses or CIDR ranges);
   * empty: the socket's address is the client's.
   */
  trustedProxies: string[];
  /** Minutes between scheduled checks of every server (check-schedule.ts); 0: none. */
  serverCheckIntervalMinutes: number;
  /** The role of a new person (the first person of an installation is always admin). */
  defaultRole: Role;
  /** Every email + password account must set up a second factor before using the app. */
  require2fa: boolean;
  /**
   * Webhook endpoints may be on private, loopback and link-local addresses (a receiver on the
   * same network, a test's on 127.0.0.1); off, such addresses are refused (webhook-address.ts).
   */
  webhookAllowPrivate: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the environment. A bad variable throws a ConfigError whose message is one line per
 * variable, naming it, so an operator sees exactly what to fix (values of secrets are never
 * echoed back).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `Invalid setting ${name}: ${issue.message}`;
    });
    throw new ConfigError([...new Set(lines)].join('\n'));
  }
  const e = parsed.data;
  if (
    e.ALLOWED_EMAIL_DOMAINS.length === 0 &&
    e.ALLOWED_EMAILS.length === 0 &&
    !e.ALLOW_OPEN_SIGNUP &&
    !isLoopback(e.HOST)
  ) {
    throw new ConfigError(
      `Refusing to start: HOST=${e.HOST} reaches beyond this machine and neither ALLOWED_EMAIL_DOMAINS nor ALLOWED_EMAILS is set, so anyone who can reach it could sign up and read every server password. Set one of them, or ALLOW_OPEN_SIGNUP=true to allow that on purpose.`,
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    dataDir,
    webDir: e.WEB_DIR === undefined ? undefined : path.resolve(e.WEB_DIR),
    database: databaseTarget(e.DATABASE_URL, dataDir, e.DATABASE_POOL_SIZE),
    secretKey: e.SECRET_KEY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    deployCommandTemplate: e.DEPLOY_COMMAND_TEMPLATE,
    appRunTemplate: e.APP_RUN_TEMPLATE,
    logLevel: e.LOG_LEVEL,
    requestLogLevel: e.NODE_ENV === 'production' || BUILT_SERVER ? 'debug' : 'info',
    providers: providers(e),
    allowedEmailDomains: e.ALLOWED_EMAIL_DOMAINS,
    allowedEmails: e.ALLOWED_EMAILS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    apiTokenRateLimitPerMinute: e.API_TOKEN_RATE_LIMIT,
    trustedProxies: e.TRUST_PROXY ?? [],
    serverCheckIntervalMinutes: e.SERVER_CHECK_INTERVAL,
    defaultRole: e.DEFAULT_ROLE,
    require2fa: e.REQUIRE_2FA,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
  };
}

/** 10.0.0.1, ::1, 10.0.0.0/8 or fd00::/8: never `true`, which would trust any client's header. */
function isAddressOrRange(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/');
  const kind = net.isIP(address);
  if (kind === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128);
}

/** Both halves of a provider's credentials, or neither: half a provider is a mistake. */
function providers(e: z.infer<typeof envSchema>): OidcProviderConfig[] {
  const result: OidcProviderConfig[] = [];
  const missing: string[] = [];
  const need = (value: string | undefined, name: string) => {
    if (!value)
      missing.push(`Invalid setting ${name}: must be set with the other settings of its provider`);
    return value ?? '';
  };
  if (e.GOOGLE_CLIENT_ID || e.GOOGLE_CLIENT_SECRET) {
    result.push({
      id: 'google',
      name: 'Google',
      issuer: e.GOOGLE_ISSUER ?? DEFAULT_GOOGLE_ISSUER,
      clientId: need(e.GOOGLE_CLIENT_ID, 'GOOGLE_CLIENT_ID'),
      clientSecret: need(e.GOOGLE_CLIENT_SECRET, 'GOOGLE_CLIENT_SECRET'),
    });
  }
  if (e.OIDC_ISSUER || e.OIDC_CLIENT_ID || e.OIDC_CLIENT_SECRET) {
    result.push({
      id: 'oidc',
      name: e.OIDC_NAME ?? 'single sign-on',
      issuer: need(e.OIDC_ISSUER, 'OIDC_ISSUER'),
      clientId: need(e.OIDC_CLIENT_ID, 'OIDC_CLIENT_ID'),
      clientSecret: need(e.OIDC_CLIENT_SECRET, 'OIDC_CLIENT_SECRET'),
    });
  }
  if (missing.length > 0) throw new ConfigError(missing.join('\n'));
  return result;
}

/**
 * A postgres:// URL read the way node-postgres reads it (pg-connection-string: spaces and stray
 * `%` encoded first, a URL without a host read with a stand-in host), or undefined when it
 * cannot be read, which node-postgres would answer with a TypeError at the first connection.
 */
export function readPostgresUrl(url: string): URL | undefined {
  const text = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(url)
    ? encodeURI(url).replace(/%25(\d\d)/g, '%$1')
    : url;
  for (const candidate of [text, text.replace('@/', `@${NO_HOST}/`)]) {
    try {
      return new URL(candidate, 'postgres://base');
    } catch {
      // Not this way: node-postgres tries the stand-in host next.
    }
  }
  return undefined;
}

/** The host pg-connection-string puts in a URL that names none (a Unix socket's `?host=`). */
export const NO_HOST = '___DUMMY___';

/**
 * Why a postgres:// URL cannot be used, in words that never quote it (it may hold a password),
 * or undefined. A `#` ends a URL: node-postgres would drop what follows, or not read the URL at
 * all when the `#` sits in the password, so it is refused, with the way to write it.
 */
export function databaseUrlProblem(url: string): string | undefined {
  if (!/^postgres(ql)?:\/\//.test(url)) return undefined;
  const encode =
    'percent-encode special characters in the user name and password (# as %23, / as %2F, @ as %40)';
  if (url.includes('#')) return `must not contain #, which ends a URL: ${encode}`;
  if (readPostgresUrl(url)) return undefined;
  // Not quoted: with no user part, the digits after a colon may be meant as a password.
  const port = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?[^/:?]*:(\d+)(?=[/?]|$)/.exec(url)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
    return 'its port is not a number from 1 to 65535';
  }
  return `cannot be read as a URL: ${encode}`;
}

/** The SQLite file of DATA_DIR, the database when DATABASE_URL is unset. */
export function dataDirDatabase(dataDir: string): string {
  return path.join(dataDir, 'clients-manager.db');
}

/** DATABASE_URL as a target (also used by `npm run db:copy` for its --from and --to). */
export function databaseTarget(
  url: string | undefined,
  dataDir: string,
  poolSize = 10,
): DatabaseTarget {
  if (url === undefined) return { kind: 'sqlite', file: dataDirDatabase(dataDir) };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url, poolSize };
  // sqlite:relative/or/absolute.db, sqlite:///abs/path.db, file:path.db
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
}
