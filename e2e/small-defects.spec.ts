import { signUpVerified, startTestServer, uniqueEmail } from '../src/server/testing/test-server.ts';
import { test, expect, seedClient, signInContext, WEB_APP } from './fixtures.ts';

test('the forgot-password screen says the link was sent once', async ({ page, server }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(uniqueEmail('forgot'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const sent = page.getByText('Password reset email sent, check your inbox.');
  await expect(sent.first()).toBeVisible();
  // A notification saying it again is drawn after the form's message: Mantine's list renders
  // a new one on a zero timeout, then its transition starts on the next frames. Count once
  // that much has run, not after a guessed time.
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        const frames = (n: number) =>
          n === 0 ? resolve(null) : requestAnimationFrame(() => frames(n - 1));
        setTimeout(() => requestAnimationFrame(() => setTimeout(() => frames(3), 0)), 0);
      }),
  );
  // Counted once, not retried: a notification closes by itself after a few seconds.
  expect(await sent.count()).toBe(1);
  void server;
});

test('while adding, no row is selected and the URL is the list; Cancel goes back', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: `Selected Before Add ${Date.now()}` });
  await page.goto(`/clients/${client.id}?q=${encodeURIComponent(client.name)}`);
  const list = page.getByRole('navigation', { name: 'Clients' });
  await expect(list.getByRole('link', { name: client.name })).toHaveAttribute(
    'aria-current',
    'true',
  );

  await page.getByRole('button', { name: 'Add client' }).click();
  await expect(page.getByRole('heading', { name: 'Add Client' })).toBeVisible();
  await expect(page).toHaveURL(/\/\?q=/);
  await expect(list.locator('[aria-current]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}\\?q=`));
  await expect(page.getByRole('region', { name: 'Selected Client' })).toBeVisible();
});

test('a signed-in person opening sign-up or sign-in goes to the app', async ({ page, staff }) => {
  void staff;
  for (const screen of ['/sign-up', '/sign-in']) {
    await page.goto(screen);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Clients', exact: true })).toBeVisible();
  }
});

test('Settings is in the side navigation', async ({ page, staff }) => {
  void staff;
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }),
  ).toHaveAttribute('aria-current', 'page');
});

test('the empty list offers a button that opens the Add form', async ({ page, context }) => {
  // A server of its own: the worker's server has other tests' clients in its list.
  const server = await startTestServer({}, { clientDir: WEB_APP });
  try {
    const staff = await signUpVerified(server, { name: 'First Person', email: uniqueEmail() });
    await signInContext(context, staff);
    await page.goto(`${server.url}/`);
    await expect(page.getByText('No clients yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Add the first client' }).click();
    await expect(page.getByRole('heading', { name: 'Add Client' })).toBeVisible();
  } finally {
    await server.close();
  }
});
