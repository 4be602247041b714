import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#shared/api-error.ts';
import { type HttpError, invalidInput } from './http-error.ts';
import { openapiOptions } from './openapi-document.ts';
import { storableInput } from './storable-input.ts';

/**
 * Routes declare their params, query, body and responses as the shared zod schemas: Fastify
 * validates requests with them before the handler runs (and refuses text no database can store
 * in any field they accept, storable-input.ts), sends each answer through its declared
 * schema (an answer that does not match is a 500, never a half-described body), and
 * @fastify/swagger collects them into the OpenAPI document. One source for all three.
 *
 * Registered before any route, so the document sees every one.
 */
export async function registerRouteSchemas(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler<z.ZodType>((route) =>
    validatorCompiler({ ...route, schema: storableInput(route.schema) }),
  );
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, openapiOptions);
}

/** A request that did not match its route's schema, as the 400 every other refusal gives. */
export function schemaRefusal(error: unknown): HttpError | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const issues = error.validation.map((issue) => ({
    path: issue.instancePath.split('/').filter(Boolean),
    message: issue.message ?? 'Invalid value',
  }));
  return invalidInput(issues, whatOf(error.validationContext, issues[0]?.path[0]));
}

/** Named as the handlers' own checks name it: "Invalid body: …", "Invalid id: …". */
function whatOf(context: string | undefined, firstKey: string | undefined): string {
  if (context === 'querystring') return 'query';
  if (context === 'params') return firstKey ?? 'params';
  return context ?? 'body';
}

/** The answers every signed-in route may give besides its own: refusals and failures. */
export const refusals = {
  400: apiErrorSchema.describe('The request named a field wrongly; `fields` says which.'),
  401: apiErrorSchema.describe('No session or token, or one that is no longer valid.'),
  403: apiErrorSchema.describe('The role, scope or second-factor rule does not allow this.'),
  404: apiErrorSchema.describe('No such record, or one outside the tags this person may see.'),
} as const;

/** A save at a version someone else replaced first (see `staleVersion` in write-result.ts). */
export const staleVersionAnswer = apiErrorSchema.describe(
  'Changed by someone else since it was read (`code` STALE_VERSION).',
);

/** An answer with no body (204). */
export const noContent = z.null().describe('No content');
