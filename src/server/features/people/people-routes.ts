import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditPageSchema,
  auditQuerySchema,
  invitationInputSchema,
  invitationLookupSchema,
  invitationSchema,
  peopleIdSchema,
  peopleListSchema,
  personPatchSchema,
  personSchema,
  type AuditPage,
  type Invitation,
  type InvitationLookup,
  type PeopleList,
  type Person,
} from '#shared/people-admin.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import type { Actor } from '#shared/events.ts';
import type { Db } from '#server/db/database.ts';
import { HttpError } from '#server/http/http-error.ts';
import { noContent, refusals } from '#server/http/route-schemas.ts';
import { PUBLIC_ACCESS } from '#server/http/openapi-document.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { PeopleRepository, PersonWriteResult } from './people-repository.ts';
import { pendingInvitation } from '#server/auth/invited-sign-up.ts';
import type { Invitations } from './invitations.ts';
import { readAudit } from './audit-log.ts';
import { pageQuerySchema } from '#shared/pages.ts';
import { listPage } from '#server/http/pages.ts';

const params = z.object({ id: peopleIdSchema });
const tags = ['people'];
/** A refusal of the people routes' own: the last administrator, or an unverified account. */
const conflict = apiErrorSchema.describe(
  'Refused: it would leave no administrator, or it gives access to an unverified account.',
);

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
  const api = app.withTypeProvider<ZodTypeProvider>();

  async function answer(result: PersonWriteResult, id: string): Promise<Person> {
    const refusal = refusalOf(result);
    if (refusal) throw refusal;
    const person = await people.get(id);
    if (!person) throw notFound();
    return person;
  }

  api.get(
    '/api/people',
    {
      schema: {
        summary: 'Everyone with an account, and the pending invitations',
        tags,
        querystring: pageQuerySchema,
        response: { 200: peopleListSchema, ...refusals },
      },
    },
    async (request): Promise<PeopleList> => {
      const [list, pending] = await Promise.all([people.list(), invitations.list()]);
      const { items, nextCursor } = listPage(list, request.query, (p) => p.id);
      return { people: items, invitations: pending, nextCursor };
    },
  );

  api.patch(
    '/api/people/:id',
    {
      schema: {
        summary: "Change a person's role, tag limit, or disable them",
        tags,
        params,
        body: personPatchSchema,
        response: { 200: personSchema, ...refusals, 409: conflict },
      },
    },
    async (request): Promise<Person> => {
      const { id } = request.params;
      const actor = actorOf(requireUser(request));
      return answer(await people.update(id, request.body, actor), id);
    },
  );

  /** An action on one person (a POST with no body), answered with the person after it. */
  function personAction(
    action: string,
    summary: string,
    act: (id: string, actor: Actor) => Promise<PersonWriteResult>,
  ): void {
    api.post(
      `/api/people/:id/${action}`,
      { schema: { summary, tags, params, response: { 200: personSchema, ...refusals } } },
      async (request): Promise<Person> => {
        const { id } = request.params;
        return answer(await act(id, actorOf(requireUser(request))), id);
      },
    );
  }

  personAction('sign-out', 'Sign a person out everywhere', (id, actor) =>
    people.signOutEverywhere(id, actor),
  );
  personAction(
    'reset-second-factor',
    "Remove a person's second factors (authenticator, backup codes, passkeys)",
    (id, actor) => people.resetSecondFactor(id, actor),
  );

  api.post(
    '/api/people/invitations',
    {
      schema: {
        summary: 'Invite someone by email, with a role and tags',
        tags,
        body: invitationInputSchema,
        response: {
          201: invitationSchema,
          ...refusals,
          409: apiErrorSchema.describe('Someone with this email has an account already.'),
        },
      },
    },
    async (request, reply): Promise<Invitation> => {
      const actor = actorOf(requireUser(request));
      const result = await invitations.create(request.body, actor);
      if (result.status === 'exists') {
        const message = 'Someone with this email has an account already: change their role instead';
        throw new HttpError(409, message, { fields: { email: message } });
      }
      void reply.status(201);
      return result.invitation;
    },
  );

  api.delete(
    '/api/people/invitations/:id',
    {
      schema: {
        summary: 'Revoke a pending invitation',
        tags,
        params,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      if (!(await invitations.revoke(request.params.id, actorOf(requireUser(request))))) {
        throw new HttpError(404, 'No pending invitation with that id: it may have been used');
      }
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/api/audit',
    {
      schema: {
        summary: 'The audit trail, newest first: changes to people and reads of secrets',
        tags,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...refusals },
      },
    },
    async (request): Promise<AuditPage> => readAudit(db, request.query),
  );

  // Public: the sign-up page shows the invited address, fixed. An unknown, used or expired
  // token is one answer, 404, so the route tells a guesser nothing; tokens are 256 random bits.
  api.get(
    '/api/invitations/:token',
    {
      schema: {
        summary: 'The address an invitation link is for (public: the sign-up page)',
        tags,
        security: PUBLIC_ACCESS,
        params: z.object({ token: peopleIdSchema }),
        response: {
          200: invitationLookupSchema,
          400: refusals[400],
          404: apiErrorSchema.describe('No such invitation, or one used or expired.'),
        },
      },
    },
    async (request): Promise<InvitationLookup> => {
      const invitation = await pendingInvitation(db, request.params.token);
      if (!invitation) {
        throw new HttpError(404, 'This invitation link is not valid any more: ask for a new one');
      }
      return { email: invitation.email };
    },
  );
}
