import type { FastifyRequest } from 'fastify';
import type { Permission } from '#shared/people.ts';
import { isWebAppSourceMap } from '#server/http/static-files.ts';
import { API_DOCS_PERMISSIONS } from '#server/http/openapi-document.ts';

/**
 * What each signed-in route needs, by method and the path it was registered with: the one place
 * that says who may call what (docs/security.md has it as a table). A route that is neither
 * public (PUBLIC_ROUTES) nor here is refused to everyone, so a route added later fails closed;
 * route-permissions.test.ts walks every registered route and each role against this table.
 *
 * Some routes also decide inside: the commands route leaves out the deployment command (it
 * carries the access token) for someone without `secret`, and an export with passwords needs
 * `secret`. Access by tag is applied by each feature's reads and writes, not here.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, Permission>> = {
  'GET /api/events': 'read',

  'GET /api/me': 'self',
  'PUT /api/me/access-token': 'self',
  'GET /api/me/sessions': 'self',
  'POST /api/me/sessions/revoke-others': 'self',
  // Session-only as well: an API token is refused these (SESSION_ONLY_ROUTES, api-tokens.ts).
  'GET /api/me/tokens': 'self',
  'POST /api/me/tokens': 'self',
  'DELETE /api/me/tokens/:id': 'self',

  'GET /api/clients': 'read',
  'GET /api/clients/:id': 'read',
  'GET /api/clients/:id/history': 'read',
  'GET /api/clients/:id/commands': 'read',
  'GET /api/clients/:id/password': 'secret',
  'POST /api/clients': 'write',
  'PUT /api/clients/:id': 'write',
  'DELETE /api/clients/:id': 'write',
  'POST /api/clients/:id/duplicate': 'write',
  'POST /api/clients/:id/restore': 'write',
  'POST /api/clients/bulk/tags': 'write',
  'POST /api/clients/bulk/delete': 'write',
  'POST /api/clients/bulk/restore': 'write',
  'GET /api/clients/export': 'read',
  'POST /api/clients/export': 'read',
  'POST /api/clients/import': 'write',

  'GET /api/servers': 'read',
  'GET /api/servers/:id': 'read',
  'GET /api/servers/:id/history': 'read',
  'POST /api/servers': 'write',
  'PUT /api/servers/:id': 'write',
  'DELETE /api/servers/:id': 'write',
  'POST /api/servers/:id/primary': 'write',
  'POST /api/servers/:id/host-key': 'write',
  // A check writes the server's status and may pin its host key.
  'POST /api/servers/:id/check': 'write',

  'GET /api/credentials': 'read',
  'GET /api/credentials/:id': 'read',
  'POST /api/credentials': 'write',
  'PUT /api/credentials/:id': 'write',
  'POST /api/credentials/:id/rotate': 'write',
  'DELETE /api/credentials/:id': 'write',
  'POST /api/credentials/:id/reveal': 'secret',

  'GET /api/people': 'admin',
  'PATCH /api/people/:id': 'admin',
  'POST /api/people/:id/sign-out': 'admin',
  'POST /api/people/:id/reset-second-factor': 'admin',
  'POST /api/people/invitations': 'admin',
  'DELETE /api/people/invitations/:id': 'admin',
  'GET /api/audit': 'admin',

  'GET /api/webhooks': 'admin',
  'POST /api/webhooks': 'admin',
  'PATCH /api/webhooks/:id': 'admin',
  'DELETE /api/webhooks/:id': 'admin',
  'GET /api/webhooks/:id/deliveries': 'admin',
  'POST /api/webhooks/:id/deliveries/:deliveryId/resend': 'admin',
  'POST /api/webhooks/:id/test': 'admin',

  'GET /api/apps': 'read',
  'GET /api/apps/:id': 'read',
  'POST /api/apps': 'write',
  'PUT /api/apps/:id': 'write',
  'DELETE /api/apps/:id': 'write',
  'GET /api/apps/:id/runs': 'read',
  // A deploy signs in with the server's credential and carries the deployer's access token,
  // neither of which it shows: 'write', like a check that signs in.
  'POST /api/apps/:id/runs': 'write',
  'GET /api/runs/:id': 'read',
  'GET /api/runs/:id/log': 'read',
  'GET /api/runs/:id/log.txt': 'read',
  'POST /api/runs/:id/cancel': 'write',

  'GET /api/issues': 'read',
  'GET /api/issues/assignees': 'read',
  'GET /api/issues/:id': 'read',
  'POST /api/issues': 'write',
  'PUT /api/issues/:id': 'write',
  'POST /api/issues/:id/resolve': 'write',
  'POST /api/issues/:id/reopen': 'write',
  'GET /api/issues/:id/comments': 'read',
  'POST /api/issues/:id/comments': 'write',
  ...API_DOCS_PERMISSIONS,
};

/** The permission a matched route needs, or undefined when the table does not name it. */
export function permissionFor(request: FastifyRequest): Permission | undefined {
  const { url, config } = request.routeOptions;
  if (isWebAppSourceMap(config)) return 'self';
  if (url === undefined) return undefined;
  return ROUTE_PERMISSIONS[routeKey(request)];
}

/** The route a request matched, as the tables here name it: `POST /api/me/tokens`. */
export function routeKey(request: FastifyRequest): string {
  // Fastify answers HEAD with the GET route.
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return `${method} ${request.routeOptions.url ?? ''}`;
}

/**
 * Under REQUIRE_2FA a person without a second factor may use their own account's routes
 * (`self`) to set one up, but not these: an API token made with the password alone would work
 * from the moment the person set up their factor.
 */
export const CLOSED_UNTIL_SECOND_FACTOR: ReadonlySet<string> = new Set(['POST /api/me/tokens']);
