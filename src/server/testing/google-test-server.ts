import { OidcIssuer } from './oidc-issuer.ts';
import {
  Session,
  freePort,
  isAddressInUse,
  startTestServer,
  type TestServer,
} from './test-server.ts';

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
  // The issuer is told the app's address before the app listens there: when something takes
  // the port meanwhile, both start again on another.
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const issuer = await new OidcIssuer().start([
      {
        clientId: 'google-client',
        clientSecret: 'google-secret',
        redirectUri: `http://127.0.0.1:${port}/api/auth/callback/google`,
      },
    ]);
    try {
      const server = await startTestServer(
        {
          GOOGLE_CLIENT_ID: 'google-client',
          GOOGLE_CLIENT_SECRET: 'google-secret',
          GOOGLE_ISSUER: issuer.url,
          ...env,
        },
        { port },
      );
      return withClose(server, issuer);
    } catch (error) {
      await issuer.close();
      if (attempt >= 3 || !isAddressInUse(error)) throw error;
    }
  }
}

function withClose(server: TestServer, issuer: OidcIssuer): GoogleTestServer {
  return {
    server,
    issuer,
    async close() {
      await server.close();
      await issuer.close();
    },
  };
}

/**
 * 'Log in with Google' as a browser does it, over HTTP: the app sends it to the issuer, whose
 * login and consent forms are posted, and the issuer sends it back to the app's callback.
 * Returns the app's session and the callback's answer.
 */
export async function signInThroughIssuer(
  app: TestServer,
  issuer: OidcIssuer,
  email: string,
): Promise<{ session: Session; callback: Response }> {
  const session = new Session(app);
  const start = await session.json<{ url: string }>('POST', '/api/auth/sign-in/social', {
    provider: 'google',
    callbackURL: '/',
    errorCallbackURL: '/sign-in',
  });
  if (start.status !== 200) throw new Error(`sign-in/social: ${start.status}`);
  const atIssuer = new Session(issuer);
  let url = new URL(start.body.url);
  for (let step = 0; url.origin === issuer.url; step++) {
    if (step > 10) throw new Error(`no way back from the issuer, at ${url.href}`);
    let response = await atIssuer.request('GET', url.href);
    if (response.status === 200) {
      // Its login form, or its consent screen.
      const html = await response.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      const form = new URLSearchParams({ prompt: prompt ?? '' });
      if (prompt === 'login') form.set('login', email);
      if (prompt === 'login') form.set('password', 'anything');
      response = await atIssuer.request('POST', url.href, form.toString(), {
        'content-type': 'application/x-www-form-urlencoded',
      });
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the issuer answered ${response.status} at ${url.href}`);
    await response.body?.cancel();
    url = new URL(location, url);
  }
  if (url.pathname !== '/api/auth/callback/google') throw new Error(`back at ${url.href}`);
  const callback = await session.request('GET', url.pathname + url.search);
  return { session, callback };
}
