import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from './database-unavailable.ts';
import { wantsSpaFallback } from './static-files.ts';
import { schemaRefusal } from './route-schemas.ts';
import { isForeignKeyViolation } from '#server/db/row-locks.ts';

/**
 * One JSON error shape for everything: our own HttpErrors, a request that failed its route's
 * schema (named as HttpErrors name fields), Fastify's parsing and size errors
 * (malformed JSON, unsupported media type, body over the limit), an unreachable database (503:
 * try again, nothing was saved unless it said so), and unexpected failures, which are logged
 * and answered without their details.
 */
export function registerErrorHandling(app: FastifyInstance, options: { spa: boolean }): void {
  app.setErrorHandler((thrown: FastifyError | HttpError, request, reply) => {
    const error = schemaRefusal(thrown) ?? thrown;
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({
        error: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
        ...(error.code ? { code: error.code } : {}),
      });
    }
    if (isDatabaseUnavailable(error)) {
      // Expected while PostgreSQL restarts or fails over: no stack trace per request.
      request.log.warn({ err: { message: error.message } }, 'database unreachable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ error: DATABASE_UNAVAILABLE_MESSAGE });
    }
    if (isForeignKeyViolation(error)) {
      // A write's reads keep the rows it refers to (db/row-locks.ts); one that does not, racing
      // a delete, is told what happened rather than given a 500.
      request.log.warn({ constraint: constraintOf(error) }, 'write refers to a deleted row');
      const field = referringField(error);
      return reply.status(409).send({
        error: `${field ? `${field}: ` : ''}${DELETED_MEANWHILE_MESSAGE}`,
        ...(field ? { fields: { [field]: DELETED_MEANWHILE_MESSAGE } } : {}),
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ error: 'Something went wrong on the server. Try again.' });
    }
    return reply
      .status(status)
      .send({ error: clientErrorMessage(error, request.routeOptions.bodyLimit) });
  });

  app.setNotFoundHandler((request, reply) => {
    if (options.spa && wantsSpaFallback(request.method, request.url, request.headers.accept)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ error: `No route ${request.method} ${request.url.split('?')[0]}` });
  });
}

export const DELETED_MEANWHILE_MESSAGE = 'What this refers to was deleted meanwhile';

function constraintOf(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown }).constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

/** The column of PostgreSQL's `<table>_<column>_fkey`; SQLite names no constraint. */
function referringField(error: unknown): string | undefined {
  return /^[A-Za-z]+_([A-Za-z]+)_fkey$/.exec(constraintOf(error) ?? '')?.[1];
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route, hook or error handler
 * runs (a path that is not valid percent-encoding, a path parameter over `maxParamLength`),
 * answered in the shape of every other refusal instead of Fastify's own.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `A part of the path is longer than ${MAX_PARAM_LENGTH} characters`
      : 'Must be valid percent-encoded UTF-8';
  void reply.status(400).send({ error: `path: ${message}` });
}

/** Fastify's default, named: the message above says it. */
export const MAX_PARAM_LENGTH = 100;

function clientErrorMessage(error: FastifyError, bodyLimit: number | undefined): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Malformed JSON body: send a valid JSON object';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // Most routes take 1 MB; the import route takes more (IMPORT_MAX_BYTES).
      return `Request body is too large: the limit is ${Math.round((bodyLimit ?? 1024 * 1024) / (1024 * 1024))} MB`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send application/json';
    default:
      return error.message;
  }
}
