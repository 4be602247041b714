import type { FastifyLoggerOptions } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Query parameters whose values are secrets (Better Auth's verify and reset links). */
const SECRET_NAME = /^(?:token|code|state)(?:\[.*\])?$/i;

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
  if (start === -1) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_NAME.test(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start)}?${pairs.join('&')}`;
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
