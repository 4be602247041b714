import type { FastifyInstance } from 'fastify';
import {
  credentialCreateSchema,
  credentialRevealSchema,
  credentialRotateSchema,
  credentialUpdateSchema,
  secretIssues,
  type Credential,
  type CredentialList,
} from '#shared/credentials.ts';
import { credentialIdSchema } from '#shared/servers.ts';
import { HttpError, parseInput } from '#server/http/http-error.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { CredentialRepository, WriteResult } from './credential-repository.ts';
import { materialOf } from './credential-material.ts';
import { serverName } from './credential-presenter.ts';

function credentialId(params: unknown): string {
  return parseInput(credentialIdSchema, (params as { id?: unknown }).id, 'id');
}

function notFound(): HttpError {
  return new HttpError(404, 'No credential with that id: it may have been deleted');
}

function written(result: WriteResult): Credential {
  if (result.status === 'not_found') throw notFound();
  if (result.status === 'conflict') {
    const by = result.current.updatedBy ? ` by ${result.current.updatedBy}` : '';
    throw new HttpError(
      409,
      `This credential was changed${by} after you opened it. Your changes were not saved: reload it and try again.`,
    );
  }
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

  app.get('/api/credentials', async (): Promise<CredentialList> => {
    return { credentials: await credentials.list() };
  });

  app.get('/api/credentials/:id', async (request): Promise<Credential> => {
    const credential = await credentials.get(credentialId(request.params));
    if (!credential) throw notFound();
    return credential;
  });

  app.post('/api/credentials', async (request, reply) => {
    const actor = actorOf(requireUser(request));
    const { name, kind, ...secret } = parseInput(credentialCreateSchema, request.body);
    const material = materialOf(kind, secret, name);
    return reply.status(201).send(await credentials.create({ name, kind }, material, actor));
  });

  app.put('/api/credentials/:id', async (request): Promise<Credential> => {
    const actor = actorOf(requireUser(request));
    const id = credentialId(request.params);
    const { name, version } = parseInput(credentialUpdateSchema, request.body);
    return written(await credentials.rename(id, name, version, actor));
  });

  // The new secret replaces the old one at once: servers that use it sign in with the new one.
  app.post('/api/credentials/:id/rotate', async (request): Promise<Credential> => {
    const actor = actorOf(requireUser(request));
    const id = credentialId(request.params);
    const { version, ...secret } = parseInput(credentialRotateSchema, request.body);
    const current = await credentials.get(id);
    if (!current) throw notFound();
    const issues = secretIssues(current.kind, secret);
    if (issues.length > 0) {
      const fields = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
      const named = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      throw new HttpError(400, `Invalid body: ${named}`, { fields });
    }
    // Read or made before the write: RSA generation takes seconds, and no lock is held for it.
    const material = materialOf(current.kind, secret, current.name);
    return written(await credentials.rotate(id, material, version, actor));
  });

  // A POST, never a GET: the secret is never in a URL, a history or a cache, and another site
  // cannot make a signed-in browser ask for it (writes refuse cross-site requests).
  app.post('/api/credentials/:id/reveal', async (request, reply) => {
    const actor = actorOf(requireUser(request));
    const id = credentialId(request.params);
    const { purpose } = parseInput(credentialRevealSchema, request.body ?? {});
    const secret = await credentials.reveal(id, purpose, actor);
    if (!secret) throw notFound();
    return reply.header('cache-control', 'no-store').send(secret);
  });

  app.delete('/api/credentials/:id', async (request, reply) => {
    const actor = actorOf(requireUser(request));
    const result = await credentials.delete(credentialId(request.params), actor);
    if (result.status === 'not_found') throw notFound();
    if (result.status === 'in_use') {
      const count = result.servers.length;
      throw new HttpError(
        409,
        `Used by ${count} server${count === 1 ? '' : 's'}: ${result.servers.map(serverName).join(', ')}`,
      );
    }
    return reply.status(204).send();
  });
}
