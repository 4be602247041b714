import { test as base, expect } from '@playwright/test';
import { startTestServer, type TestServer } from '../src/server/testing/test-server.ts';
import { WEB_APP } from './fixtures.ts';

// A server of its own: after this test its sign-in counter is spent for a minute.
const test = base.extend<object, { server: TestServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
    async ({}, use) => {
      const server = await startTestServer({}, { clientDir: WEB_APP });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

test('too many sign-in attempts: the screen says to wait', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('guess@example.test');
  await page.getByLabel('Password').fill('wrong password');
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  for (let i = 0; i < 10; i++) {
    const answered = page.waitForResponse('**/api/auth/sign-in/email');
    await signIn.click();
    expect((await answered).status()).toBe(401);
  }
  const limited = page.waitForResponse('**/api/auth/sign-in/email');
  await signIn.click();
  expect((await limited).status()).toBe(429);
  await expect(page.getByRole('alert')).toContainText(
    'Too many attempts. Wait a minute and try again.',
  );
});
