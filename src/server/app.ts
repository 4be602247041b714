import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { SecretBox } from './secrets.ts';
import { secretKeyFor } from './secret-key-check.ts';
import { tightenDataDir } from './private-files.ts';
import { openStoredSecrets } from './secret-key-rotation.ts';
import { createMailer } from './mail/mailer.ts';
import { createAuth, type Auth, type PasswordHashing } from './auth/auth.ts';
import { registerAuthRoutes } from './auth/auth-routes.ts';
import { registerSessionGuard } from './auth/session-guard.ts';
import { EventHub } from './realtime/event-hub.ts';
import { registerEventsRoute } from './realtime/events-route.ts';
import { startStreamAccessCheck } from './realtime/stream-access.ts';
import { PgWakeup } from './realtime/pg-wakeup.ts';
import { ClientRepository } from './features/clients/client-repository.ts';
import { registerClientRoutes } from './features/clients/client-routes.ts';
import { registerClientBulkRoutes } from './features/clients/client-bulk-routes.ts';
import { registerServerRoutes } from './features/servers/server-routes.ts';
import { ServerWrites } from './features/servers/server-writes.ts';
import { ServerRepository } from './features/servers/server-repository.ts';
import { ServerChecks } from './features/servers/server-checks.ts';
import { CheckSchedule } from './features/servers/check-schedule.ts';
import { registerCredentialRoutes } from './features/credentials/credential-routes.ts';
import { CredentialRepository } from './features/credentials/credential-repository.ts';
import type { CheckOptions } from './ssh/reachability.ts';
import { registerTransferRoutes } from './features/transfer/transfer-routes.ts';
import { DeployTokens } from './features/account/deploy-tokens.ts';
import { registerAccountRoutes } from './features/account/account-routes.ts';
import { registerSessionRoutes } from './features/account/session-routes.ts';
import { registerPeopleFeature } from './features/people/people-feature.ts';
import { registerWebhookFeature } from './features/webhooks/webhook-feature.ts';
import type { WebhookOutbox, WebhookTimings } from './realtime/webhook-outbox.ts';
import { registerTokenFeature } from './features/tokens/token-feature.ts';
import { registerAppsFeature } from './features/apps/apps-feature.ts';
import type { RunManager, RunTimings } from './features/runs/run-manager.ts';
import { registerIssueFeature } from './features/issues/issue-feature.ts';
import {
  MAX_PARAM_LENGTH,
  answerFrameworkError,
  registerErrorHandling,
} from './http/error-handler.ts';
import { registerCsrfCheck } from './http/csrf.ts';
import { loggerOptions, terminalLogStream } from './http/logger.ts';
import { requestLoggerFactory } from './http/request-logger.ts';
import { RequestLogLines } from './http/request-log-lines.ts';
import { registerStaticFiles } from './http/static-files.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { recordRoutes } from './http/route-registry.ts';
import { registerRouteSchemas } from './http/route-schemas.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerApiDocs } from './http/openapi-document.ts';

const DEFAULT_CLIENT_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../dist/client',
);

/**
 * Milliseconds a connection may go without a byte read or written before the server closes it
 * (Node's server.timeout). Without it a client that stops reading keeps its socket, and the
 * whole answer waiting on it (a list or an export of tens of MB), for ever; with it, such a
 * reader is let go one to two timeouts after the last byte it took (Node looks again once when
 * the pending write moved). It must outlast every silence of a legitimate connection: the live
 * and run-log streams' keep-alive comments (event-hub.ts), an upload's pauses, and the longest
 * a request works before it answers, an import opening its keys' passphrases
 * (OPEN_TIME_LIMIT_MS in locked-key.ts). Idle kept-alive connections between requests follow
 * Fastify's keepAliveTimeout instead.
 */
export const CONNECTION_TIMEOUT_MS = 120_000;

export interface AppParts {
  db: Db;
  auth: Auth;
  hub: EventHub;
  /** Reachability checks of servers: 'Check now' and the schedule's. */
  checks: ServerChecks;
  /** The scheduled server checks; undefined when SERVER_CHECK_INTERVAL is 0. */
  schedule: CheckSchedule | undefined;
  /** Set once the routes are registered, as the outbox starts with them. */
  webhooks?: WebhookOutbox;
  /** Apps' runs on this instance; set once the routes are registered. */
  runs?: RunManager;
}

declare module 'fastify' {
  interface FastifyInstance {
    parts: AppParts;
  }
}

/**
 * Builds the whole server without listening: tests use it as it is. The database is opened
 * and migrated here, and closed with the app.
 */
export async function buildApp(
  config: Config,
  options: {
    clientDir?: string;
    /** Where log lines go instead of stdout (tests read them). */
    logStream?: { write(line: string): void };
    /** Timeouts and retries of server checks (tests shorten the waits). */
    serverChecks?: CheckOptions;
    /** Milliseconds between scheduled checks instead of SERVER_CHECK_INTERVAL; 0: none. */
    checkIntervalMs?: number;
    /** Retry delays and the timeout of webhook deliveries (tests shorten the waits). */
    webhooks?: WebhookTimings;
    /** Heartbeat, cancel grace and SSH timeout of apps' runs (tests shorten the waits). */
    runs?: RunTimings;
    /** Password hashing instead of Better Auth's own (tests make it cheaper). */
    passwordHashing?: PasswordHashing;
    /** Instead of CONNECTION_TIMEOUT_MS, and the streams' keep-alive (tests shorten both). */
    connectionTimeoutMs?: number;
    streamKeepAliveMs?: number;
  } = {},
): Promise<FastifyInstance> {
  const stream = options.logStream ?? (await terminalLogStream());
  const app = Fastify({
    logger: {
      ...loggerOptions(config.logLevel),
      ...(stream ? { stream } : {}),
    },
    childLoggerFactory: requestLoggerFactory,
    logController: new RequestLogLines(config.requestLogLevel),
    bodyLimit: 1024 * 1024,
    connectionTimeout: options.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS,
    // request.ip is the client's address (rate limits, sessions, logs): behind a reverse proxy
    // it comes from X-Forwarded-For, but only when the socket is one of the named proxies.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // Streams are ended by the hub on close; idle keep-alive sockets need not hold shutdown.
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
  });
  // First, so that it sees every route registered after it.
  recordRoutes(app);
  await registerRouteSchemas(app);
  registerJsonBodyParser(app);

  const tightened = tightenDataDir(config.dataDir);
  if (tightened.length > 0) {
    app.log.warn({ files: tightened }, 'data folder files were readable by others: made private');
  }
  const db = openDatabase(config.database, { log: app.log });
  app.addHook('onClose', async () => db.close());
  const applied = await migrateToLatest(db);
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');

  let secretKey: string;
  let resealed: number;
  try {
    secretKey = await secretKeyFor(db, config);
    resealed = await openStoredSecrets(db.kysely, secretKey);
  } catch (error) {
    await db.close();
    throw error;
  }
  const box = new SecretBox(secretKey);
  if (resealed > 0) app.log.info({ resealed }, 'stored secrets bound to their rows');
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log: app.log,
  });
  app.addHook('onClose', async () => mailer.close());

  const auth = createAuth({
    db,
    config,
    secretKey,
    mailer,
    log: app.log,
    passwordHashing: options.passwordHashing,
  });
  if (config.allowedEmailDomains.length === 0 && config.allowedEmails.length === 0) {
    app.log.warn(
      'ALLOWED_EMAIL_DOMAINS and ALLOWED_EMAILS are not set: anyone who can reach this server may sign up',
    );
  }

  const hub = new EventHub(db.kysely, app.log, {
    ...(options.streamKeepAliveMs !== undefined ? { keepAliveMs: options.streamKeepAliveMs } : {}),
  });
  await hub.start();
  const stopAccessCheck = startStreamAccessCheck(hub, db.kysely, db.dialect, app.log);
  if (config.database.kind === 'postgres') {
    // Other instances' writes wake this hub through LISTEN/NOTIFY (see pg-wakeup.ts).
    const wakeup = new PgWakeup(config.database.url, () => void hub.wake(), app.log);
    await wakeup.start();
    app.addHook('onClose', async () => wakeup.close());
  }
  app.addHook('preClose', async () => {
    stopAccessCheck();
    hub.close();
    // server.close() reaps idle sockets once. A request still in flight at that moment leaves
    // a kept-alive socket behind when it finishes, which would hold shutdown for the whole
    // keep-alive timeout: keep reaping until the server has closed.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
    app.server.once('close', () => clearInterval(reaper));
  });

  const checks = new ServerChecks(db, box, () => void hub.wake(), options.serverChecks);
  const intervalMs = options.checkIntervalMs ?? config.serverCheckIntervalMinutes * 60_000;
  const schedule =
    intervalMs > 0
      ? new CheckSchedule({
          db,
          checks,
          intervalMs,
          log: app.log,
          ...(config.database.kind === 'postgres' ? { lockUrl: config.database.url } : {}),
        })
      : undefined;
  if (schedule) {
    schedule.start();
    // Registered after the database's hook, so it runs first (Fastify closes in reverse).
    app.addHook('onClose', async () => schedule.close());
  }

  app.decorate('parts', { db, auth, hub, checks, schedule });

  registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https:') });

  const spa = await registerStaticFiles(
    app,
    options.clientDir ?? config.webDir ?? DEFAULT_CLIENT_DIR,
  );
  if (!spa) app.log.warn('web app not built (run npm run build): serving the API only');
  registerErrorHandling(app, { spa });
  registerCsrfCheck(app, config.publicUrl);
  const allowlist = { domains: config.allowedEmailDomains, emails: config.allowedEmails };
  registerSessionGuard(
    app,
    auth,
    db,
    allowlist,
    config.require2fa,
    config.apiTokenRateLimitPerMinute,
  );

  registerHealthRoutes(app, db);

  registerAuthRoutes(app, auth, config.publicUrl);
  const tokens = new DeployTokens(db.kysely, box);
  const clients = new ClientRepository(db, box, () => void hub.wake());
  const servers = new ServerRepository(db.kysely);
  registerAccountRoutes(app, {
    tokens,
    publicConfig: { providers: config.providers.map(({ id, name }) => ({ id, name })) },
  });
  registerSessionRoutes(app, { db, auth });
  registerClientRoutes(app, {
    clients,
    servers,
    tokens,
    deployCommandTemplate: config.deployCommandTemplate,
  });
  registerClientBulkRoutes(app, { clients });
  registerServerRoutes(app, {
    servers,
    checks,
    writes: new ServerWrites(db, () => void hub.wake()),
  });
  registerCredentialRoutes(app, {
    credentials: new CredentialRepository(db, box, () => void hub.wake()),
  });
  registerTransferRoutes(app, { db, box, clients, onCommitted: () => void hub.wake() });
  registerPeopleFeature(app, { db, mailer, publicUrl: config.publicUrl, hub });
  registerTokenFeature(app, { db, hub });
  registerIssueFeature(app, { db, hub });
  registerEventsRoute(app, hub);
  app.parts.webhooks = registerWebhookFeature(app, {
    db,
    box,
    hub,
    log: app.log,
    allowPrivate: config.webhookAllowPrivate,
    allowlist,
    ...(config.database.kind === 'postgres' ? { poolSize: config.database.poolSize } : {}),
    ...(options.webhooks ? { timings: options.webhooks } : {}),
  });
  app.parts.runs = await registerAppsFeature(app, {
    db,
    box,
    hub,
    tokens,
    appRunTemplate: config.appRunTemplate,
    log: app.log,
    ...(options.runs ? { timings: options.runs } : {}),
  });
  await registerApiDocs(app);

  return app;
}
