import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessTokenInputSchema,
  meSchema,
  publicConfigSchema,
  type Me,
  type PublicConfig,
} from '#shared/account.ts';
import { refusals } from '#server/http/route-schemas.ts';
import { PUBLIC_ACCESS } from '#server/http/openapi-document.ts';
import { requireUser } from '#server/auth/session-guard.ts';
import { maskToken, type DeployTokens } from './deploy-tokens.ts';

const tags = ['account'];

export function registerAccountRoutes(
  app: FastifyInstance,
  deps: { tokens: DeployTokens; publicConfig: PublicConfig },
): void {
  const { tokens, publicConfig } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/config',
    {
      schema: {
        summary: 'What the sign-in screen needs before anyone is signed in (public)',
        tags,
        security: PUBLIC_ACCESS,
        response: { 200: publicConfigSchema },
      },
    },
    async (): Promise<PublicConfig> => publicConfig,
  );

  async function me(userId: string): Promise<Me['accessToken']> {
    const token = await tokens.read(userId);
    return { isSet: token !== null, masked: token === null ? null : maskToken(token) };
  }

  api.get(
    '/api/me',
    {
      schema: {
        summary: 'The signed-in person: role, tags, second factor, access token (masked)',
        tags,
        response: { 200: meSchema, ...refusals },
      },
    },
    async (request): Promise<Me> => {
      const user = requireUser(request);
      return {
        id: user.id,
        email: user.email,
        displayName: user.name.trim() || null,
        photoURL: user.image,
        emailVerified: user.emailVerified,
        listView: user.listView,
        role: user.role,
        tags: user.tags === null ? null : [...user.tags],
        twoFactorEnabled: user.twoFactorEnabled,
        secondFactorRequired: user.secondFactorRequired,
        accessToken: await me(user.id),
      };
    },
  );

  api.put(
    '/api/me/access-token',
    {
      schema: {
        summary: 'Set (or, with an empty string, remove) the access token deploy commands carry',
        tags,
        body: accessTokenInputSchema,
        response: { 200: z.object({ accessToken: meSchema.shape.accessToken }), ...refusals },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await tokens.write(user.id, request.body.accessToken);
      return { accessToken: await me(user.id) };
    },
  );
}
