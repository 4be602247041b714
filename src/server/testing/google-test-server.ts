import { OidcIssuer } from './oidc-issuer.ts';
import { freePort, startTestServer, type TestServer } from './test-server.ts';

export interface GoogleTestServer {
  server: TestServer;
  /** The real OpenID provider the app's 'Log in with Google' is pointed at. */
  issuer: OidcIssuer;
  close(): Promise<void>;
}

/**
 * The app with 'Log in with Google' configured against a real OpenID provider on loopback
 * (GOOGLE_ISSUER), registered with the app's redirect URI; `env` adds to its settings.
 */
export async function startGoogleTestServer(
  env: Record<string, string> = {},
): Promise<GoogleTestServer> {
  const port = await freePort();
  const issuer = await new OidcIssuer().start([
    {
      clientId: 'google-client',
      clientSecret: 'google-secret',
      redirectUri: `http://127.0.0.1:${port}/api/auth/callback/google`,
    },
  ]);
  const server = await startTestServer(
    {
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_ISSUER: issuer.url,
      ...env,
    },
    { port },
  );
  return {
    server,
    issuer,
    async close() {
      await server.close();
      await issuer.close();
    },
  };
}
