import type { FastifyLoggerOptions } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Query parameters whose values are secrets (Better Auth's verify and reset links). */
const SECRET_QUERY = /([?&](?:token|code|state)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
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
