import type { FastifyInstance } from 'fastify';
import { accessTokenInputSchema, type Me, type PublicConfig } from '#shared/account.ts';
import { parseInput } from '#server/http/http-error.ts';
import { requireUser } from '#server/auth/session-guard.ts';
import { maskToken, type DeployTokens } from './deploy-tokens.ts';

export function registerAccountRoutes(
  app: FastifyInstance,
  deps: { tokens: DeployTokens; publicConfig: PublicConfig },
): void {
  const { tokens, publicConfig } = deps;

  app.get('/api/config', async (): Promise<PublicConfig> => publicConfig);

  async function me(userId: string): Promise<Me['accessToken']> {
    const token = await tokens.read(userId);
    return { isSet: token !== null, masked: token === null ? null : maskToken(token) };
  }

  app.get('/api/me', async (request): Promise<Me> => {
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
  });

  app.put('/api/me/access-token', async (request) => {
    const user = requireUser(request);
    const { accessToken } = parseInput(accessTokenInputSchema, request.body);
    await tokens.write(user.id, accessToken);
    return { accessToken: await me(user.id) };
  });
}
