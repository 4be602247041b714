import type { FastifyLoggerOptions } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';

/**
 * Query parameters whose values are secrets: Better Auth's verify and reset links, a provider's
 * answer, an invitation's sign-up link (whoever has it may take the invited account), and the
 * names a client, a script or a pasted link commonly puts a secret under (`password`,
 * `access_token`, `api_key`, `client_secret`, `x-api-key`, `signature`, …: any name ending in
 * token, secret, password, key and the like). Whole words only: `?secrets=true` (the export's
 * flag) and `?tokens=` are no secrets, and say what was asked.
 */
const SECRET_NAME =
  /^(?:[\w.-]*(?:token|secret|password|passwd|passphrase|pwd|key|signature|credentials?|jwt)|code|state|invitation|pass|sig|otp|auth|authorization|session|sessionid|sid)(?:\[.*\])?$/i;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/**
 * The URL with the values of secret query parameters cut. Names are compared decoded, as the
 * server reads them: `?%74oken=…` is the same parameter as `?token=…`.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  const path = redactPath(start === -1 ? url : url.slice(0, start));
  if (start === -1) return path;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_NAME.test(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${path}?${pairs.join('&')}`;
}

/**
 * Tokens carried in the path: Better Auth's reset link (/api/auth/reset-password/<token>) and
 * the sign-up page's look-up of an invitation (/api/invitations/<token>).
 */
const TOKEN_IN_PATH = /(\/reset-password\/|\/api\/invitations\/)[^/?]+/gi;

function redactPath(path: string): string {
  return path.replace(TOKEN_IN_PATH, '$1[redacted]');
}

/**
 * pino options: request lines without query secrets, and redaction of every place a cookie,
 * password or token can sit in a logged object.
 */
export function loggerOptions(level: string): FastifyLoggerOptions & LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.accessToken',
        '*.token',
        '*.secret',
        '*.serverPassword',
        'password',
        'accessToken',
        'token',
        // Better Auth's own log lines: { auth: [context objects] }.
        'auth[*].token',
        'auth[*].password',
        'auth[*].clientSecret',
        'auth[*].accessToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}

/**
 * Where log lines go: a person at a terminal (`npm start`, `npm run dev`) reads lines, so they
 * are made readable with pino-pretty; anything else (a file, journald, a log shipper) gets one
 * JSON object a line, which is what those read. Undefined: pino's own JSON to stdout.
 */
export async function terminalLogStream(
  out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
): Promise<DestinationStream | undefined> {
  if (!out.isTTY) return undefined;
  // Loaded only for a terminal: a server under a service manager never needs it.
  const { default: pretty } = await import('pino-pretty');
  return pretty({ destination: out, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
}
