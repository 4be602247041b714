import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import {
  signUpVerified,
  startTestServer,
  uniqueEmail,
  type ServerAddress,
  type Session,
  type TestServer,
} from '../src/server/testing/test-server.ts';
import { linkIn } from '../src/server/testing/mail-catcher.ts';
import type { Client, ClientInput } from '../src/shared/clients.ts';

// E2E_WEB_DIR: a build of one's own (`vite build --outDir …`), so parallel runs don't share dist/.
export const WEB_APP =
  process.env.E2E_WEB_DIR ?? path.resolve(import.meta.dirname, '../dist/client');

interface WorkerFixtures {
  server: TestServer;
}

interface TestFixtures {
  /** A verified staff member, signed in in the page's browser context. */
  staff: Session;
  /** On a failure, prints what the page showed and which requests failed (see below). */
  failureReport: void;
  /** A folder of the test's own, removed after it, pass or fail, with what was left in it. */
  tempFolder: string;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
    async ({}, use) => {
      // One server serves a whole worker's tests, which sign up many people a minute from one
      // address; the limit itself is tested with its default in rate-limit.spec.ts.
      // WEBHOOK_ALLOW_PRIVATE: webhooks.spec.ts delivers to its own receiver on 127.0.0.1.
      const server = await startTestServer(
        { AUTH_RATE_LIMIT_PER_MINUTE: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' },
        { clientDir: WEB_APP },
      );
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  staff: async ({ server, context }, use) => {
    // Every test of a worker signs people up from 127.0.0.1, more than the 10 sign-ups a
    // minute one address may make: start each test with fresh counters (rate-limit.spec.ts
    // checks the limit itself, after this).
    await server.app.parts.db.kysely.deleteFrom('rateLimit').execute();
    // History names people by email: a known prefix lets the tests match it.
    const session = await signUpVerified(server, {
      name: 'Grace Staff',
      email: uniqueEmail('grace'),
    });
    await signInContext(context, session);
    await use(session);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
  tempFolder: async ({}, use) => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'cm-e2e-'));
    await use(folder);
    await rm(folder, { recursive: true, force: true });
  },
  // Tests record no trace (playwright.config.ts): a failure is explained by the page's URL, its
  // accessibility tree, and the API answers and page errors that led to it.
  failureReport: [
    async ({ page }, use, testInfo) => {
      const seen: string[] = [];
      const started = Date.now();
      const note = (line: string) => seen.push(`+${Date.now() - started} ms ${line}`);
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (url.pathname.startsWith('/api/') && response.status() >= 400) {
          note(`${response.status()} ${response.request().method()} ${url.pathname}`);
        }
      });
      page.on('requestfailed', (request) => {
        const reason = request.failure()?.errorText ?? 'unknown';
        note(`${reason} ${request.method()} ${new URL(request.url()).pathname}`);
      });
      page.on('load', () => note(`loaded ${new URL(page.url()).pathname}`));
      page.on('requestfinished', (request) => {
        const { pathname } = new URL(request.url());
        const took = request.timing().responseEnd;
        if (pathname.startsWith('/api/') && took > 1_000) note(`slow (${took} ms) ${pathname}`);
      });
      page.on('pageerror', (error) => note(`page error: ${error.message}`));
      await use();
      if (testInfo.status === testInfo.expectedStatus || page.isClosed()) return;
      const tree = await page
        .locator('body')
        .ariaSnapshot({ timeout: 2_000 })
        .catch((error: unknown) => `(no snapshot: ${String(error)})`);
      console.log(
        [
          `--- ${testInfo.title}: the page at the failure`,
          `url: ${page.url()}`,
          ...seen.slice(-30),
          tree.split('\n').slice(0, 80).join('\n'),
          '---',
        ].join('\n'),
      );
    },
    { auto: true },
  ],
});

export { expect };

/** Puts a session's cookies into a browser context, as if that person had signed in there. */
export async function signInContext(context: BrowserContext, session: Session): Promise<void> {
  await context.addCookies(
    [...session.cookies].map(([name, value]) => ({ name, value, url: session.server.url })),
  );
}

/**
 * Holds back the page's requests for `url` (a lazily loaded chunk, an API call), as a slow link
 * or a loaded machine would, until the returned function lets them through.
 */
export async function holdBack(page: Page, url: string | RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Creates a client through the API, as a colleague would. */
export async function seedClient(session: Session, input: ClientInput): Promise<Client> {
  const response = await session.json<Client>('POST', '/api/clients', input);
  if (response.status !== 201) throw new Error(`seedClient: ${response.status}`);
  return response.body;
}

/** Signs up through the screens and follows the mailed link; ends signed in on '/'. */
export async function signUpThroughUi(
  page: Page,
  server: ServerAddress,
  options: { name?: string; email?: string; password?: string } = {},
): Promise<{ email: string; password: string }> {
  const email = options.email ?? uniqueEmail('ui');
  const password = options.password ?? 'a long pass phrase';
  const before = server.mail.mails.length;
  await page.goto('/sign-up');
  if (options.name) await page.getByLabel('Name', { exact: true }).fill(options.name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  const mail = await server.mail.waitFor(email, 'Verify your email', before);
  await confirmThroughUi(page, linkIn(mail), password);
  await expect(page).toHaveURL(`${server.url}/`);
  return { email, password };
}

/** Opens the sign-up mail's link and confirms it with the password chosen at sign-up. */
export async function confirmThroughUi(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
}
