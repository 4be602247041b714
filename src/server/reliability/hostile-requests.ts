import fc from 'fast-check';
import type { RegisteredRoute } from '#server/http/route-registry.ts';

/** One generated request, as `app.inject` takes it. */
export interface HostileRequest {
  method: string;
  /** The registered route it aims at (its path is filled with generated parameters). */
  route: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Whether the payload is a JSON object sent as JSON: a refusal must then name fields. */
  jsonObject: boolean;
  withSession: boolean;
}

/** Strings that have broken servers: NUL (PostgreSQL text refuses it), lone surrogates, RTL. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil',
  '\uFEFF',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE client; --",
  '$(reboot)',
  '`id`',
  '%00',
  '\r\nSet-Cookie: x=1',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'NaN',
  '-1',
  '1e400',
  '9'.repeat(400),
  'é'.repeat(3000),
  'x'.repeat(70_000),
];

const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', size: 'large' }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
);

/** A plausible value with one poison inside: what reaches the database if a check misses it. */
const poisoned = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('\u0000', '\uD800', '\uDFFF', '\u0000\u0000', '\uFFFF', '\u2028', '\r\n'),
    fc.string({ maxLength: 8 }),
  )
  .map(([a, poison, b]) => `${a}${poison}${b}`);

/** Any JSON value, plus the awkward ones: huge and negative numbers, long and NUL strings. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  anyString,
  fc.constantFrom(0, -1, 1.5, 65536, Number.MAX_SAFE_INTEGER + 2, -0, 1e308, true, false, null),
  fc.array(anyString, { maxLength: 60 }),
);

/** Valid values of each client field: mixed with hostile ones, requests reach deep checks. */
const validClient = fc.record({
  name: fc.constantFrom('Acme', 'Ünïcode Ltd', ''),
  code: fc.constantFrom('ACM', ''),
  description: fc.constantFrom('A client', ''),
  tags: fc.constantFrom<unknown>('eu-west-1, web', ['a', 'b'], []),
  startDate: fc.constantFrom('2026-11-21', '2026-11-21T10:00:00.000Z'),
  server: fc.record({
    host: fc.constantFrom('example.com', '10.0.0.1', ''),
    port: fc.constantFrom(22, 2222),
    username: fc.constantFrom('deploy', ''),
    password: fc.constantFrom('pw-1', ''),
    private: fc.boolean(),
    uiDir: fc.constantFrom('/srv/ui', ''),
  }),
  domains: fc.constantFrom<unknown>(['https://example.com'], []),
  version: fc.constantFrom(1, 1, 2, 3),
});

/** Where one hostile value goes into an otherwise valid body. */
const CLIENT_PATHS = [
  'name',
  'code',
  'description',
  'tags',
  'tags.0',
  'startDate',
  'server',
  'server.host',
  'server.port',
  'server.username',
  'server.password',
  'server.private',
  'server.uiDir',
  'domains',
  'domains.0',
  'version',
];

function withValueAt(body: Record<string, unknown>, path: string, value: unknown) {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    const next = target[key];
    target[key] = typeof next === 'object' && next !== null ? next : {};
    target = target[key] as Record<string, unknown>;
  }
  target[keys.at(-1)!] = value;
  return copy;
}

/** Client bodies: valid, one field hostile, or every field valid, hostile or missing. */
const clientBodies: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 1, arbitrary: validClient },
  {
    weight: 4,
    arbitrary: fc
      .tuple(validClient, fc.constantFrom(...CLIENT_PATHS), fc.oneof(anyJson, poisoned))
      .map(([body, path, value]) => withValueAt(body, path, value)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        validClient,
        fc.dictionary(fc.constantFrom(...CLIENT_PATHS, '__proto__', 'id', 'createdBy'), anyJson, {
          maxKeys: 4,
        }),
      )
      .map(([body, changes]) =>
        Object.entries(changes).reduce<Record<string, unknown>>(
          (b, [path, value]) => withValueAt(b, path, value),
          body,
        ),
      ),
  },
);

/**
 * Vault bodies: create, rename, rotate and reveal fields together, valid or one hostile. Keys
 * are generated as Ed25519 only: an RSA 4096 key takes seconds to make.
 */
const credentialCommon = {
  name: fc.constantFrom('Deploy key', 'Ünïcode token', ''),
  version: fc.constantFrom(1, 1, 2),
  purpose: fc.constantFrom('reveal', 'copy'),
};
const validCredential: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({
    ...credentialCommon,
    kind: fc.constantFrom('password', 'token'),
    secret: fc.constantFrom('s3cret', ''),
  }),
  fc.record({
    ...credentialCommon,
    kind: fc.constant('ssh-key'),
    generate: fc.constant('ed25519'),
  }),
  fc.record({
    ...credentialCommon,
    kind: fc.constant('ssh-key'),
    privateKey: fc.constantFrom(
      '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl x',
    ),
    passphrase: fc.constantFrom('pass phrase', ''),
  }),
);
const CREDENTIAL_PATHS = [
  'name',
  'kind',
  'generate',
  'privateKey',
  'passphrase',
  'secret',
  'version',
  'purpose',
];
const credentialBodies: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 1, arbitrary: validCredential },
  {
    weight: 3,
    arbitrary: fc
      .tuple(validCredential, fc.constantFrom(...CREDENTIAL_PATHS), fc.oneof(anyJson, poisoned))
      .map(([body, path, value]) => withValueAt(body, path, value)),
  },
);

/**
 * Webhook bodies: valid ones (a public name, a private address refused on save, a Slack
 * endpoint, a chosen secret), or one field hostile.
 */
const validWebhook = fc.record({
  url: fc.constantFrom(
    'https://hooks.example.com/in',
    'http://10.0.0.1/hook',
    'http://[::ffff:127.0.0.1]/x',
    'ftp://example.com/',
    '',
  ),
  events: fc.constantFrom<unknown>(['client.created'], ['server.checked', 'person.joined'], []),
  format: fc.constantFrom('json', 'slack'),
  enabled: fc.boolean(),
  secret: fc.constantFrom('a-secret-of-sixteen+', 'short'),
});
const WEBHOOK_PATHS = ['url', 'events', 'events.0', 'format', 'enabled', 'secret'];
const webhookBodies: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 1, arbitrary: validWebhook },
  {
    weight: 3,
    arbitrary: fc
      .tuple(validWebhook, fc.constantFrom(...WEBHOOK_PATHS), fc.oneof(anyJson, poisoned))
      .map(([body, path, value]) => withValueAt(body, path, value)),
  },
);

const accessTokenBodies = fc.oneof(
  fc.record({ accessToken: fc.constantFrom('tok-123', 'a b c', '') }),
  fc.record({ accessToken: fc.oneof(anyJson, poisoned) }),
  fc.dictionary(anyString, anyJson, { maxKeys: 3 }),
);

/** Personal API token bodies: valid ones, each field wrong, and anything at all. */
const apiTokenBodies = fc.oneof(
  fc.record({
    name: fc.constantFrom('CI', 'Deploy script', '', ' ', 'x'.repeat(101)),
    scope: fc.constantFrom('read', 'read+secrets', 'write', 'admin', 'READ', ''),
    expiresInDays: fc.constantFrom(30, 90, 365, null, 0, 7, -1, '30'),
  }),
  fc.record({
    name: fc.oneof(anyJson, poisoned),
    scope: fc.oneof(anyJson, poisoned),
    expiresInDays: fc.oneof(anyJson, poisoned),
  }),
  fc.dictionary(anyString, anyJson, { maxKeys: 3 }),
);

/** Valid values of each server field, with real client ids (and a fingerprint to accept). */
function validServer(clientIds: readonly string[]) {
  return fc.record({
    clientId: fc.constantFrom(...clientIds, 'noSuchClient'),
    label: fc.constantFrom('production', 'staging', 'qa', 'MAIN', ''),
    host: fc.constantFrom('example.com', '10.0.0.1', ''),
    port: fc.constantFrom(22, 2222),
    username: fc.constantFrom('deploy', ''),
    private: fc.boolean(),
    uiDir: fc.constantFrom('/srv/ui', ''),
    credentialId: fc.constantFrom(null, null, 'noSuchCredential'),
    fingerprint: fc.constantFrom(`SHA256:${'A'.repeat(43)}`, 'SHA256:short'),
    version: fc.constantFrom(1, 1, 2, 3),
  });
}

const SERVER_PATHS = [
  'clientId',
  'label',
  'host',
  'port',
  'username',
  'private',
  'uiDir',
  'credentialId',
  'fingerprint',
  'version',
];

/** Server bodies: valid, or one field hostile. */
function serverBodies(clientIds: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const valid = validServer(clientIds);
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...SERVER_PATHS), fc.oneof(anyJson, poisoned))
        .map(([body, path, value]) => withValueAt(body, path, value)),
    },
  );
}

/** Valid values of each issue field (a create's, an edit's, a comment's), with real client ids. */
function validIssue(clientIds: readonly string[]) {
  return fc.record({
    clientId: fc.constantFrom(...clientIds, 'noSuchClient'),
    serverId: fc.constantFrom(null, null, 'noSuchServer'),
    appId: fc.constantFrom(null, null, 'noSuchApp'),
    kind: fc.constantFrom('note', 'problem', 'rant'),
    title: fc.constantFrom('Disk full', '  Backup failed  ', '', 'x'.repeat(201)),
    text: fc.constantFrom('', 'Cleared the logs.', 'line\nline'),
    assigneeId: fc.constantFrom(null, null, 'noSuchPerson'),
    version: fc.constantFrom(1, 1, 2, 3),
  });
}

const ISSUE_PATHS = [
  'clientId',
  'serverId',
  'appId',
  'kind',
  'title',
  'text',
  'assigneeId',
  'version',
];

/** Issue bodies: valid, or one field hostile. */
function issueBodies(clientIds: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const valid = validIssue(clientIds);
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...ISSUE_PATHS), fc.oneof(anyJson, poisoned))
        .map(([body, path, value]) => withValueAt(body, path, value)),
    },
  );
}

/** Bodies as text: JSON of every shape, broken JSON, prototype-pollution keys. */
function bodies(
  route: string,
  clientIds: readonly string[],
): fc.Arbitrary<{ text: string; jsonObject: boolean } | undefined> {
  const object =
    route === '/api/me/access-token'
      ? accessTokenBodies
      : route.startsWith('/api/me/tokens')
        ? apiTokenBodies
        : route.startsWith('/api/credentials')
          ? credentialBodies
          : route.startsWith('/api/servers')
            ? serverBodies(clientIds)
            : route.startsWith('/api/webhooks')
              ? webhookBodies
              : route.startsWith('/api/issues')
                ? issueBodies(clientIds)
                : clientBodies;
  return fc.oneof(
    { weight: 6, arbitrary: object.map((o) => ({ text: JSON.stringify(o), jsonObject: true })) },
    {
      weight: 2,
      arbitrary: anyJson.map((v) => ({
        text: JSON.stringify(v) ?? 'null',
        jsonObject: typeof v === 'object' && v !== null && !Array.isArray(v),
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          '{"__proto__":{"isAdmin":true},"name":"p"}',
          '{"constructor":{"prototype":{"isAdmin":true}},"name":"p"}',
          '{"name":"a","name":"b"}',
          '{"name":',
          '{"name":"\\ud800"}',
          '{"name":"\\u0000"}',
          '{"server":{"port":1e400}}',
          `${'['.repeat(5000)}${']'.repeat(5000)}`,
          `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
          '',
          'null',
          'not json at all',
          '\u0000',
        )
        .map((text) => ({ text, jsonObject: false })),
    },
    { weight: 1, arbitrary: anyString.map((text) => ({ text, jsonObject: false })) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** What a path parameter may be: a real id, a generated one, or an encoding trick. */
function ids(realIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...realIds) },
    {
      weight: 3,
      arbitrary: anyString.map((s) => encodeURIComponent(s.slice(0, 2000).toWellFormed())),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%ff',
        '%C0%AF',
        '%ED%A0%80',
        '%00',
        '%2e%2e',
        '%2F',
        '..',
        'a'.repeat(65),
        '__proto__',
        'constructor',
      ),
    },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/json; charset=latin1',
  'application/json; boundary=x',
  'application/json;;;',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/vnd.api+json',
  '*/*',
  ';',
  'garbage',
];

/** A query string of generated keys and values, repeated keys and bracket syntax included. */
const queries = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('q', 'lastEventId', '__proto__', 'q[]', 'token', 'a[b][c]'),
        anyString,
      ),
      anyString,
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([k, v]) => `${encodeURIComponent(k.toWellFormed())}=${encodeURIComponent(v.slice(0, 3000).toWellFormed())}`).join('&')}`,
  );

/** Header values a client can send (visible ASCII), and the headers our code reads. */
const headerValue = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom('', '-1', '0', '1', '99999999999999999999', 'x'.repeat(4000)),
);

export interface HostileSetup {
  routes: readonly RegisteredRoute[];
  /** Ids of real clients, credentials, webhooks, issues, apps and runs, for the routes' `:id`. */
  realIds: readonly string[];
  /** Ids of real clients, for a server's `clientId`. */
  realClientIds: readonly string[];
  /** Ids of real servers, for the server routes' `:id`. */
  realServerIds: readonly string[];
  origin: string;
}

/**
 * 'Check now' gets no real server: it would open SSH connections to the generated hosts and
 * wait out their retries. Its refusals (a bad or unknown id) are what is fuzzed there.
 */
function takesServerId(route: string): boolean {
  return route.startsWith('/api/servers/:id') && route !== '/api/servers/:id/check';
}

/**
 * Requests to every route of the list: generated path parameters, query strings, headers and
 * bodies. Better Auth's routes go without a session (what a stranger can reach); ours mostly
 * with one, so the requests get past the guard into the handlers.
 */
export function hostileRequests(setup: HostileSetup): fc.Arbitrary<HostileRequest> {
  // Writes weigh more: they are where half-written state could hide.
  const route = fc.oneof(
    ...setup.routes.map((r) => ({
      weight: r.method === 'GET' || r.method === 'HEAD' ? 1 : 4,
      arbitrary: fc.constant(r),
    })),
  );
  return route.chain((route) =>
    fc
      .record({
        id: ids(takesServerId(route.url) ? setup.realServerIds : setup.realIds),
        wildcard: fc.oneof(
          fc.constantFrom(
            'sign-in/email',
            'sign-up/email',
            'get-session',
            'request-password-reset',
            'reset-password',
            'verify-email',
            'confirm-email',
            'send-verification-email',
            'sign-in/social',
            'callback/google',
            'ok',
            'error',
          ),
          anyString.map((s) => encodeURIComponent(s.slice(0, 500).toWellFormed())),
        ),
        query: queries,
        body: bodies(route.url, setup.realClientIds),
        contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 2 }),
        lastEventId: headerValue,
        extra: fc.dictionary(
          fc.constantFrom('accept', 'x-forwarded-for', 'sec-fetch-site', 'if-none-match', 'range'),
          headerValue,
          { maxKeys: 2 },
        ),
        origin: fc.constantFrom('own', 'own', 'own', 'own', 'own', 'own', 'foreign', 'none'),
        session: fc.constantFrom(
          'staff',
          'staff',
          'staff',
          'staff',
          'staff',
          'staff',
          'none',
          'garbage',
          // The staff's cookie beside a made-up API token: the token alone decides, a 401.
          'bearer',
        ),
      })
      .map(({ id, wildcard, query, body, contentType, lastEventId, extra, origin, session }) => {
        const auth = route.url.startsWith('/api/auth/');
        const path = route.url
          .replace(/:id\b/g, id)
          .replace(/:deliveryId\b/g, id)
          .replace(/\*$/, wildcard);
        const headers: Record<string, string> = { ...extra };
        if (contentType !== undefined || body !== undefined) {
          headers['content-type'] = contentType ?? 'application/json';
        }
        if (origin !== 'none') {
          headers.origin = origin === 'own' ? setup.origin : 'https://evil.example';
        }
        // The live stream answers a valid request with a stream that never ends: only its
        // refusals are fuzzed (a Last-Event-ID that is not a sequence number).
        if (route.url === '/api/events') headers['last-event-id'] = `x${lastEventId}`;
        const withSession = !auth && (session === 'staff' || session === 'bearer');
        if (session === 'garbage') headers.cookie = `cm.session_token=${encodeURIComponent(id)}`;
        if (session === 'bearer') headers.authorization = `Bearer cm_${id}`;
        return {
          method: route.method,
          route: route.url,
          url: path + query,
          headers,
          ...(body === undefined ? {} : { payload: body.text }),
          jsonObject:
            body?.jsonObject === true &&
            (headers['content-type'] ?? '').toLowerCase().startsWith('application/json'),
          withSession,
        };
      }),
  );
}
