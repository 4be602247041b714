import type { Client } from '../src/shared/clients.ts';
import { test, expect, seedClient } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { saveScreen } from './screens.ts';

test('navigation: Issues, Servers, Credentials and Apps open', async ({ page, staff }) => {
  void staff;
  await page.goto('/');
  for (const name of ['Issues', 'Servers', 'Credentials', 'Apps']) {
    await page.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${name.toLowerCase()}$`));
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(`${name} – Clients Manager`);
    if (name === 'Issues') {
      await expect(page.getByLabel('Search issues')).toBeVisible();
    }
    if (name === 'Apps') {
      await expect(page.getByLabel('Search apps')).toBeVisible();
    }
  }
  await page.getByRole('link', { name: 'Clients Manager' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('No client selected')).toBeVisible();
  await expect(page).toHaveTitle('Clients – Clients Manager');
  await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
  await expect(page).toHaveTitle('Settings – Clients Manager');
  await page.goto('/no-such-page');
  await expect(page).toHaveTitle('Page not found – Clients Manager');
});

test('/dashboard goes to /, and the user area shows the name, an avatar and Sign out', async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Grace Staff', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});

test('not signed in: the app sends you to sign-in', async ({ page }) => {
  await page.goto('/clients/abc');
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page).toHaveTitle('Sign in – Clients Manager');
});

test('the URL names the selected client, so a reload keeps it', async ({ page, staff }) => {
  const client = await seedClient(staff, { name: 'Reloadable', code: 'RLD' });
  await page.goto(`/clients/${client.id}`);
  await expect(page.getByRole('heading', { name: 'Reloadable (RLD)' })).toBeVisible();
  // Other tests of this worker added clients before it: its row may be far down, and is
  // brought into view.
  await expect(page.getByRole('link', { name: /Reloadable \(RLD\)/ })).toBeInViewport();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Reloadable (RLD)' })).toBeVisible();
  await page.goto('/clients/doesnotexist1');
  await expect(page.getByText('Client not found')).toBeVisible();
});

test('an address no client id can have is not found, not an error to try again', async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/clients/bad%20id!!');
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(panel.getByRole('heading', { name: 'Client not found' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await panel.getByRole('link', { name: 'Back to all clients' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('No client selected')).toBeVisible();

  // The server refusing an id the web app took for well formed (their rules apart) says the
  // same: the address names no client.
  await page.route('**/api/clients/refused-id', (route) =>
    route.fulfill({ status: 400, json: { error: 'Invalid id: id: Must be a client id' } }),
  );
  await page.goto('/clients/refused-id');
  await expect(panel.getByRole('heading', { name: 'Client not found' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Try again' })).toHaveCount(0);

  // Every other record's page says the same of such an address.
  for (const [path, heading] of [
    ['/servers/bad%20id!!', 'Server not found'],
    ['/credentials/bad%20id!!', 'Credential not found'],
    ['/apps/bad%20id!!', 'App not found'],
    ['/issues/bad%20id!!', 'Issue not found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 }), path).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' }), path).toHaveCount(0);
  }
});

test('a link to a client whose row is in view already leaves the page at the top', async ({
  page,
  staff,
}) => {
  await seedClient(staff, { name: 'Anything', code: 'ANY' });
  // The first row of the list is always in view, whatever this worker's other tests added.
  const { body } = await staff.json<{ clients: Client[] }>('GET', '/api/clients');
  const first = body.clients[0]!;
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/clients/${first.id}`);
  await expect(page.getByRole('link', { name: new RegExp(`^1\\.`) })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect(page.getByRole('searchbox', { name: 'Search clients' })).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('markup in any field renders as text and never runs', async ({ page, staff }) => {
  const xss = '<img src=x onerror="window.__pwned=1">';
  const client = await seedClient(staff, {
    name: xss,
    code: xss,
    description: xss,
    tags: 'safe-tag',
    server: { uiDir: xss },
  });
  let dialog = false;
  page.on('dialog', () => (dialog = true));
  await page.goto(`/clients/${client.id}`);
  await expect(page.getByRole('heading', { name: `${xss} (${xss})` })).toBeVisible();
  await expect(page.getByText(xss).first()).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(dialog).toBe(false);
});

test("a screen whose code does not load says so inside the shell, and the app's links still work", async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/');
  await expect(page.getByText('No client selected')).toBeVisible();
  // As a dropped connection or a deploy that removed the old files would have it.
  await page.route(/\/assets\/credentials-page-[^/]*\.js$/, (route) => route.abort());
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Credentials' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong' })).toBeVisible();
  // The shell stays: another section is a click away, without a reload.
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'Clients', exact: true }).click();
  await expect(page.getByText('No client selected')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong' })).toHaveCount(0);
});

test('on a phone the closed navigation takes no focus; open, Escape closes it', async ({
  page,
  staff,
}) => {
  void staff;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/issues');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const burger = page.getByRole('button', { name: 'Open navigation' });
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  // Closed, it is off screen: neither a Tab stop nor read out.
  await page.getByRole('button', { name: 'Sign out' }).focus();
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Clients' })).not.toBeFocused();
  await expect(nav).toHaveAttribute('inert', '');

  await burger.click();
  const close = page.getByRole('button', { name: 'Close navigation' });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  await nav.getByRole('link', { name: 'Servers' }).focus();
  await expect(nav.getByRole('link', { name: 'Servers' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(burger).toBeFocused();
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toHaveAttribute('inert', '');
});

test('a long unbroken client name wraps on its records’ pages, not the page', async ({
  page,
  staff,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const client = await seedClient(staff, { name: `Long${'W'.repeat(120)}`, code: 'LNG' });
  const server = await staff.json<{ id: string }>('POST', '/api/servers', {
    clientId: client.id,
    label: 'web',
    host: 'web.example.com',
  });
  await page.goto(`/servers/${server.body.id}`);
  await expect(page.getByText(/^Server of/)).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
});

test('at 320 px wide the header keeps Sign out on screen; the skip link hides at any text size', async ({
  page,
  staff,
}) => {
  void staff;
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/issues');
  const signOut = page.getByRole('button', { name: 'Sign out' });
  await expect(signOut).toBeVisible();
  const box = (await signOut.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(320);

  // Text at 200% (WCAG 1.4.4): the skip link, out of sight until focused, stays out of sight.
  await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  const hidden = (await skip.boundingBox())!;
  expect(hidden.y + hidden.height).toBeLessThanOrEqual(0);
});

test('on a 390 px phone with text at 200%, the header keeps its buttons whole and no page scrolls sideways', async ({
  page,
  staff,
}) => {
  void staff;
  await page.setViewportSize({ width: 390, height: 844 });
  // Text at 200% (WCAG 1.4.4) on a phone, where the page must still reflow (WCAG 1.4.10).
  const biggerText = () => page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
  for (const [path, heading, screen] of [
    ['/', 'Clients', 'dashboard'],
    ['/settings', 'Settings', 'settings'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await biggerText();
    const header = page.getByRole('banner');
    const bar = (await header.boundingBox())!;
    const buttons = header.locator('a, button');
    await expect(buttons.filter({ visible: true })).not.toHaveCount(0);
    for (const button of await buttons.filter({ visible: true }).all()) {
      const name = (await button.getAttribute('aria-label')) ?? (await button.innerText());
      const box = (await button.boundingBox())!;
      // Whole: inside the viewport's width and inside the header's bar.
      expect.soft(box.x, `${path}: ${name}`).toBeGreaterThanOrEqual(0);
      expect.soft(box.x + box.width, `${path}: ${name}`).toBeLessThanOrEqual(390);
      expect.soft(box.y, `${path}: ${name}`).toBeGreaterThanOrEqual(bar.y);
      expect.soft(box.y + box.height, `${path}: ${name}`).toBeLessThanOrEqual(bar.y + bar.height);
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect.soft(width, `${path} is as wide as the phone`).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, `${path} at 390 px with text at 200%`);
    await saveScreen(page, `shell/text-200-390-${screen}`, { fullPage: true });
  }
});
