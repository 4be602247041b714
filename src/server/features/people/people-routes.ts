import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  auditQuerySchema,
  invitationInputSchema,
  personPatchSchema,
  type AuditPage,
  type Invitation,
  type InvitationLookup,
  type PeopleList,
  type Person,
} from '#shared/people-admin.ts';
import type { Db } from '#server/db/database.ts';
import { HttpError, parseInput } from '#server/http/http-error.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { PeopleRepository, PersonWriteResult } from './people-repository.ts';
import { pendingInvitation } from '#server/auth/invited-sign-up.ts';
import type { Invitations } from './invitations.ts';
import { readAudit } from './audit-log.ts';

/**
 * Ids of people (Better Auth's), invitations (UUIDs) and invitation tokens (base64url): letters,
 * digits, '-' and '_'. Anything else never names one, and must not reach a query (PostgreSQL
 * refuses a NUL in text with an error, not a miss).
 */
const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'Must be an id');

function idOf(params: unknown): string {
  return parseInput(idSchema, (params as { id?: unknown }).id, 'id');
}

function notFound(): HttpError {
  return new HttpError(404, 'No person with that id: their account may have been deleted');
}

function refusalOf(result: PersonWriteResult): HttpError | undefined {
  switch (result.status) {
    case 'done':
      return undefined;
    case 'not_found':
      return notFound();
    case 'refused':
      return result.field === undefined
        ? new HttpError(result.code, result.message)
        : new HttpError(result.code, result.message, {
            fields: { [result.field]: result.message },
          });
  }
}

/**
 * The People screen's routes, administrators only (route-permissions.ts), and the one public
 * route the sign-up page asks about its invitation link.
 */
export function registerPeopleRoutes(
  app: FastifyInstance,
  deps: { db: Db; people: PeopleRepository; invitations: Invitations },
): void {
  const { db, people, invitations } = deps;

  async function answer(result: PersonWriteResult, id: string): Promise<Person> {
    const refusal = refusalOf(result);
    if (refusal) throw refusal;
    const person = await people.get(id);
    if (!person) throw notFound();
    return person;
  }

  app.get('/api/people', async (): Promise<PeopleList> => {
    const [list, pending] = await Promise.all([people.list(), invitations.list()]);
    return { people: list, invitations: pending };
  });

  app.patch('/api/people/:id', async (request): Promise<Person> => {
    const id = idOf(request.params);
    const patch = parseInput(personPatchSchema, request.body);
    const actor = actorOf(requireUser(request));
    return answer(await people.update(id, patch, actor), id);
  });

  app.post('/api/people/:id/sign-out', async (request): Promise<Person> => {
    const id = idOf(request.params);
    const actor = actorOf(requireUser(request));
    return answer(await people.signOutEverywhere(id, actor), id);
  });

  app.post('/api/people/:id/reset-second-factor', async (request): Promise<Person> => {
    const id = idOf(request.params);
    const actor = actorOf(requireUser(request));
    return answer(await people.resetSecondFactor(id, actor), id);
  });

  app.post('/api/people/invitations', async (request, reply): Promise<Invitation> => {
    const input = parseInput(invitationInputSchema, request.body);
    const actor = actorOf(requireUser(request));
    const result = await invitations.create(input, actor);
    if (result.status === 'exists') {
      const message = 'Someone with this email has an account already: change their role instead';
      throw new HttpError(409, message, { fields: { email: message } });
    }
    void reply.status(201);
    return result.invitation;
  });

  app.delete('/api/people/invitations/:id', async (request, reply) => {
    const id = idOf(request.params);
    if (!(await invitations.revoke(id, actorOf(requireUser(request))))) {
      throw new HttpError(404, 'No pending invitation with that id: it may have been used');
    }
    return reply.status(204).send();
  });

  app.get('/api/audit', async (request): Promise<AuditPage> => {
    return readAudit(db, parseInput(auditQuerySchema, request.query, 'query'));
  });

  // Public: the sign-up page shows the invited address, fixed. An unknown, used or expired
  // token is one answer, 404, so the route tells a guesser nothing; tokens are 256 random bits.
  app.get('/api/invitations/:token', async (request): Promise<InvitationLookup> => {
    const token = parseInput(idSchema, (request.params as { token?: unknown }).token, 'token');
    const invitation = await pendingInvitation(db, token);
    if (!invitation) {
      throw new HttpError(404, 'This invitation link is not valid any more: ask for a new one');
    }
    return { email: invitation.email };
  });
}
