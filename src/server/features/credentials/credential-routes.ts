import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  credentialCreateSchema,
  credentialListSchema,
  credentialRevealBodySchema,
  credentialRotateSchema,
  credentialSchema,
  credentialSecretSchema,
  credentialUpdateSchema,
  secretIssues,
  type Credential,
  type CredentialList,
} from '#shared/credentials.ts';
import { credentialIdSchema } from '#shared/servers.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { HttpError } from '#server/http/http-error.ts';
import { noContent, refusals, staleVersionAnswer } from '#server/http/route-schemas.ts';
import { staleVersion } from '#server/http/write-result.ts';
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import { isLimited, reachableClientIds } from '#server/auth/tag-scope.ts';
import {
  canUseCredential,
  credentialInReach,
  ownCredentialIds,
  scopedCredential,
  serversInReach,
} from './credential-scope.ts';
import { pageQuerySchema } from '#shared/pages.ts';
import { listPage } from '#server/http/pages.ts';
import type { CredentialRepository, WriteResult } from './credential-repository.ts';
import { materialOf } from './credential-material.ts';
import { serverName } from './credential-presenter.ts';

const params = z.object({ id: credentialIdSchema });
const tags = ['credentials'];

function notFound(): HttpError {
  return new HttpError(404, 'No credential with that id: it may have been deleted');
}

function written(result: WriteResult): Credential {
  if (result.status === 'not_found') throw notFound();
  if (result.status === 'conflict') throw staleVersion('credential', result.current.updatedBy);
  return result.credential;
}

/**
 * The vault: credentials listed without their secrets, written with their events, and read in
 * clear only by an explicit reveal. Staff only, as every route behind the session guard.
 */
export function registerCredentialRoutes(
  app: FastifyInstance,
  deps: { credentials: CredentialRepository },
): void {
  const { credentials } = deps;
  const db = app.parts.db.kysely;

  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The credential's id from the route, once the person may see it (credential-scope.ts): one
   * they may not is answered as one that does not exist.
   */
  async function reachableId(request: FastifyRequest, id: string): Promise<string> {
    if (!(await canUseCredential(db, accessOf(requireUser(request)), id))) throw notFound();
    return id;
  }

  /** A written credential as the person may see it (its servers of their clients only). */
  async function seen(request: FastifyRequest, credential: Credential): Promise<Credential> {
    const access = accessOf(requireUser(request));
    return (await credentialInReach(db, access, credential)) ?? { ...credential, servers: [] };
  }

  api.get(
    '/api/credentials',
    {
      schema: {
        summary: 'The vault: every credential, never its secret',
        tags,
        querystring: pageQuerySchema,
        response: { 200: credentialListSchema, ...refusals },
      },
    },
    async (request): Promise<CredentialList> => {
      const access = accessOf(requireUser(request));
      const [all, reachable, own] = await Promise.all([
        credentials.list(),
        reachableClientIds(db, access),
        // Only a limited person's list depends on what they made.
        isLimited(access) ? ownCredentialIds(db, access.userId) : new Set<string>(),
      ]);
      const seen = reachable
        ? all.flatMap((credential) => {
            const reach = (clientId: string) => reachable.has(clientId);
            const scoped = scopedCredential(credential, reach, own);
            return scoped ? [scoped] : [];
          })
        : all;
      const { items, nextCursor } = listPage(seen, request.query, (c) => c.id);
      return { credentials: items, nextCursor };
    },
  );

  api.get(
    '/api/credentials/:id',
    {
      schema: {
        summary: 'One credential, never its secret',
        tags,
        params,
        response: { 200: credentialSchema, ...refusals },
      },
    },
    async (request): Promise<Credential> => {
      const credential = await credentials.get(request.params.id);
      if (!credential) throw notFound();
      const scoped = await credentialInReach(db, accessOf(requireUser(request)), credential);
      if (!scoped) throw notFound();
      return scoped;
    },
  );

  api.post(
    '/api/credentials',
    {
      schema: {
        summary: 'Add a credential: an SSH key (pasted or generated), a password or a token',
        tags,
        body: credentialCreateSchema,
        response: { 201: credentialSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const { name, kind, ...secret } = request.body;
      const material = await materialOf(kind, secret, name);
      const created = await credentials.create({ name, kind }, material, actor);
      return reply.status(201).send(created);
    },
  );

  api.put(
    '/api/credentials/:id',
    {
      schema: {
        summary: 'Rename a credential; `version` is the one it was read at',
        tags,
        params,
        body: credentialUpdateSchema,
        response: { 200: credentialSchema, ...refusals, 409: staleVersionAnswer },
      },
    },
    async (request): Promise<Credential> => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const { name, version } = request.body;
      return seen(request, written(await credentials.rename(id, name, version, actor)));
    },
  );

  // The new secret replaces the old one at once: servers that use it sign in with the new one.
  api.post(
    '/api/credentials/:id/rotate',
    {
      schema: {
        summary: 'Replace the secret; the servers that use it sign in with the new one at once',
        tags,
        params,
        body: credentialRotateSchema,
        response: { 200: credentialSchema, ...refusals, 409: staleVersionAnswer },
      },
    },
    async (request): Promise<Credential> => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const { version, ...secret } = request.body;
      const current = await credentials.get(id);
      if (!current) throw notFound();
      const issues = secretIssues(current.kind, secret);
      if (issues.length > 0) {
        const fields = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
        const named = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
        throw new HttpError(400, `Invalid body: ${named}`, { fields });
      }
      // Read or made before the write: RSA generation takes seconds, and no lock is held for it.
      const material = await materialOf(current.kind, secret, current.name);
      return seen(request, written(await credentials.rotate(id, material, version, actor)));
    },
  );

  // A POST, never a GET: the secret is never in a URL, a history or a cache, and another site
  // cannot make a signed-in browser ask for it (writes refuse cross-site requests).
  api.post(
    '/api/credentials/:id/reveal',
    {
      schema: {
        summary: 'The secret in clear (recorded as revealed or copied)',
        tags,
        params,
        body: credentialRevealBodySchema,
        response: { 200: credentialSecretSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const secret = await credentials.reveal(id, request.body.purpose, actor);
      if (!secret) throw notFound();
      return reply.header('cache-control', 'no-store').send(secret);
    },
  );

  api.delete(
    '/api/credentials/:id',
    {
      schema: {
        summary: 'Delete a credential no server uses',
        tags,
        params,
        response: {
          204: noContent,
          ...refusals,
          409: apiErrorSchema.describe('Servers still sign in with it; the message names them.'),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const result = await credentials.delete(await reachableId(request, request.params.id), actor);
      if (result.status === 'not_found') throw notFound();
      if (result.status === 'in_use') {
        const count = result.servers.length;
        // Servers of clients outside the person's tags are counted, never named.
        const servers = await serversInReach(db, accessOf(user), result.servers);
        const hidden = count - servers.length;
        const named = [
          ...servers.map(serverName),
          ...(hidden > 0 ? [`${hidden} of clients outside your tags`] : []),
        ];
        throw new HttpError(
          409,
          `Used by ${count} server${count === 1 ? '' : 's'}: ${named.join(', ')}`,
        );
      }
      return reply.status(204).send(null);
    },
  );
}
