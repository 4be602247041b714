import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware } from 'better-auth/api';

type Handler = Parameters<typeof createAuthMiddleware>[0];

/**
 * A plugin of one hook that runs after Better Auth answers the named routes, and may change
 * or add to what they did: how this project's hooks on Better Auth's routes are declared.
 */
export function afterRoutes(id: string, paths: Iterable<string>, handler: Handler) {
  const routes = new Set(paths);
  return {
    id,
    hooks: {
      after: [
        {
          matcher: (context) => routes.has(context.path ?? ''),
          handler: createAuthMiddleware(handler),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
