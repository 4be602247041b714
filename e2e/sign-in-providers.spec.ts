import { test as base, expect, type Page } from '@playwright/test';
import {
  serverPort,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '../src/server/testing/test-server.ts';
import { OidcIssuer, PROVIDER_PICTURE } from '../src/server/testing/oidc-issuer.ts';
import { WEB_APP } from './fixtures.ts';
import { saveScreen } from './screens.ts';

/** One app configured with Google (pointed at a local OpenID provider) and a second provider. */
const test = base.extend<object, { issuer: OidcIssuer; server: TestServer }>({
  issuer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
    async ({}, use, workerInfo) => {
      void workerInfo;
      await use(new OidcIssuer());
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ issuer }, use) => {
      const port = await serverPort();
      const app = `http://127.0.0.1:${port}`;
      await issuer.start([
        {
          clientId: 'google-client',
          clientSecret: 'google-secret',
          redirectUri: `${app}/api/auth/callback/google`,
        },
        {
          clientId: 'acme-client',
          clientSecret: 'acme-secret',
          redirectUri: `${app}/api/auth/callback/oidc`,
        },
      ]);
      const server = await startTestServer(
        {
          GOOGLE_CLIENT_ID: 'google-client',
          GOOGLE_CLIENT_SECRET: 'google-secret',
          GOOGLE_ISSUER: issuer.url,
          OIDC_ISSUER: issuer.url,
          OIDC_CLIENT_ID: 'acme-client',
          OIDC_CLIENT_SECRET: 'acme-secret',
          OIDC_NAME: 'Acme SSO',
          ALLOWED_EMAIL_DOMAINS: 'example.test',
        },
        { clientDir: WEB_APP, port },
      );
      await use(server);
      await server.close();
      await issuer.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

// One worker runs these tests in order: its fixture (an OpenID provider and a server that trusts
// it) is worth building once.
test.describe.configure({ mode: 'default' });

/**
 * Signs in on the provider's own pages: its login form, then its consent screen, which each test
 * meets since its browser context starts with no session at the provider. Waiting for it, not
 * glancing: right after the login form is sent, the consent page may not be drawn yet.
 */
async function signInAtProvider(page: Page, email: string): Promise<void> {
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('Log in with Google: the provider signs you in and the app shows your name and photo', async ({
  page,
  server,
  issuer,
}) => {
  issuer.accounts.set('grace@example.test', {
    name: 'Grace Hopper',
    emailVerified: true,
    picture: PROVIDER_PICTURE,
  });
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Clients Manager' })).toBeVisible();
  const google = page.getByRole('button', { name: 'Log in with Google' });
  await expect(google).toBeVisible();
  // As in the original: Google's button comes first, before the other doors.
  await expect(page.getByRole('button').first()).toHaveText('Log in with Google');
  await google.click();
  await expect(page).toHaveURL(new RegExp(`^${issuer.url}/`));
  await signInAtProvider(page, 'grace@example.test');
  await expect(page).toHaveURL(`${server.url}/`);
  await expect(page.getByText('Grace Hopper', { exact: true })).toBeVisible();
  await expect(page.locator(`img[src="${PROVIDER_PICTURE}"]`)).toBeVisible();
  await saveScreen(page, 'sign-in-providers/signed-in-with-google');
  // Signed in: the sign-in screen sends you on.
  await page.goto('/sign-in');
  await expect(page).toHaveURL(`${server.url}/`);
  // Signing out ends the app's session only: the browser stays here, not at the provider's
  // end-session page (which Better Auth would send it to, the ID token in the address).
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${server.url}/sign-in`);
  await expect(page.getByRole('button', { name: 'Log in with Google' })).toBeVisible();
});

test('a second OpenID provider gets its own button through the same code path', async ({
  page,
  server,
  issuer,
}) => {
  issuer.accounts.set('sso-user@example.test', { name: 'Sso User', emailVerified: true });
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Log in with Acme SSO' }).click();
  await signInAtProvider(page, 'sso-user@example.test');
  await expect(page).toHaveURL(`${server.url}/`);
  await expect(page.getByText('Sso User', { exact: true })).toBeVisible();
});

test('a person outside the allowed domains is refused with the reason, and no account is made', async ({
  page,
  server,
}) => {
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Log in with Google' }).click();
  await signInAtProvider(page, 'eve@evil.test');
  await expect(page).toHaveURL(/\/sign-in\?/);
  await expect(page.getByRole('alert')).toContainText(
    'is not allowed to sign in to Clients Manager',
  );
  await saveScreen(page, 'sign-in-providers/refused');
  const users = await server.app.parts.db.kysely
    .selectFrom('user')
    .select('id')
    .where('email', '=', 'eve@evil.test')
    .execute();
  expect(users).toHaveLength(0);
});

test('a provider account is not linked to an email account when the provider did not verify the email', async ({
  page,
  server,
  issuer,
}) => {
  await signUpVerified(server, { email: 'bob@example.test', name: 'Bob Email' });
  issuer.accounts.set('bob@example.test', { name: 'Bob Provider', emailVerified: false });
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Log in with Google' }).click();
  await signInAtProvider(page, 'bob@example.test');
  await expect(page).toHaveURL(/\/sign-in\?/);
  await expect(page.getByRole('alert')).toContainText(/not linked|verif/i);
  const accounts = await server.app.parts.db.kysely
    .selectFrom('account')
    .innerJoin('user', 'user.id', 'account.userId')
    .select('account.providerId')
    .where('user.email', '=', 'bob@example.test')
    .execute();
  expect(accounts.map((a) => a.providerId)).toEqual(['credential']);
});
