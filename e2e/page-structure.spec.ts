import type { Page } from '@playwright/test';
import type { Server } from '../src/shared/servers.ts';
import { test, expect, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';
import { expectNoAxeViolations } from './axe.ts';

/*
 * What a screen reader finds by structure: landmarks, and headings one level under the one
 * above; and scrolls that jump, not glide, for someone whose system asks for less motion.
 */

const SIZES = [
  ['desktop', { width: 1366, height: 768 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** The font size, weight and colour of a heading: how it looks, whatever its level. */
const look = (page: Page, name: string) =>
  page.getByRole('heading', { name, exact: true }).evaluate((element) => {
    const style = getComputedStyle(element);
    return `${style.fontSize} ${style.fontWeight} ${style.lineHeight}`;
  });

test('a record page’s sections are headings of level 2, under its level 1', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Heading Levels', code: 'HDL' });
  const key = await staff.json<{ id: string }>('POST', '/api/credentials', {
    name: 'Levels key',
    kind: 'ssh-key',
    generate: 'ed25519',
  });
  const server = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'levels-web',
    host: 'levels.example.com',
    username: 'deploy',
    credentialId: key.body.id,
  });
  const app = await staff.json<{ id: string }>('POST', '/api/apps', {
    clientId: client.id,
    serverId: server.body.id,
    name: 'levels-app',
  });
  const issue = await staff.json<{ id: string }>('POST', '/api/issues', {
    clientId: client.id,
    kind: 'problem',
    title: 'Levels problem',
    text: 'Some text',
  });
  // In the client panel (h2 'Selected Client', h3 the client's name) they stay at level 4.
  await page.goto(`/clients/${client.id}`);
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(
    panel.getByRole('heading', { name: 'Heading Levels (HDL)', level: 3 }),
  ).toBeVisible();
  for (const name of ['Tags', 'Server', 'Commands', 'History']) {
    await expect(panel.getByRole('heading', { name, level: 4, exact: true })).toBeVisible();
  }
  expect(await look(page, 'Tags')).toBe('14px 650 21px');
  const pages: [string, string, string[]][] = [
    [`/servers/${server.body.id}`, 'levels-web', ['Status', 'Details', 'SSH command', 'History']],
    [`/credentials/${key.body.id}`, 'Levels key', ['Used by', 'Record']],
    [`/apps/${app.body.id}`, 'levels-app', ['Run', 'History']],
    [`/issues/${issue.body.id}`, 'Levels problem', ['Text', 'Details', 'Comments']],
  ];
  for (const [url, title, sections] of pages) {
    await page.goto(url);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    for (const name of sections) {
      await expect(main.getByRole('heading', { name, level: 2, exact: true })).toBeVisible();
    }
    // Nothing skips from the page's heading to a lower level.
    await expect(main.locator('h3, h4, h5, h6')).toHaveCount(0);
    // The same small dimmed label as in the panel, whatever its level.
    expect(await look(page, sections[0]!)).toBe('14px 650 21px');
  }
});

test('the not-found page is a main landmark', async ({ page }) => {
  await page.goto('/no-such-page');
  const main = page.getByRole('main');
  await expect(main).toHaveCount(1);
  await expect(main.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
});

/** Records the `behavior` of every scrollIntoView the page asks for. */
async function recordScrolls(page: Page) {
  await page.addInitScript(() => {
    const scrolls: string[] = [];
    (window as unknown as { scrolls: string[] }).scrolls = scrolls;
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (options?: boolean | ScrollIntoViewOptions) {
      if (typeof options === 'object') scrolls.push(options.behavior ?? 'auto');
      original.call(this, options);
    };
  });
  return () => page.evaluate(() => (window as unknown as { scrolls: string[] }).scrolls);
}

for (const reducedMotion of ['reduce', 'no-preference'] as const) {
  const expected = reducedMotion === 'reduce' ? 'auto' : 'smooth';
  test(`scrolls into view are ${expected} when reduced motion is ${reducedMotion}`, async ({
    page,
    staff,
  }) => {
    const name = `Motion ${reducedMotion} ${Date.now().toString(36)}`;
    await seedClient(staff, { name, code: 'MOT' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ reducedMotion });
    const scrolls = await recordScrolls(page);
    // Searched for: the worker's earlier tests may have left rows enough to push it out of view.
    await page.goto(`/?q=${encodeURIComponent(name)}`);
    // On a phone the panel sits under the list: opening a client scrolls it into view.
    await page
      .getByRole('navigation', { name: 'Clients' })
      .getByRole('link', { name: `${name} (MOT)` })
      .click();
    await expect(page.getByRole('heading', { name: `${name} (MOT)` })).toBeVisible();
    await expect.poll(scrolls).toEqual([expected]);

    // A refused save brings the form's alert into view.
    await page.getByRole('button', { name: 'Add client' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Refused');
    await page.getByLabel('Code', { exact: true }).fill('REF');
    await page.route('**/api/clients', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, json: { error: 'Broken' } })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expect.poll(scrolls).toContain(expected);
    expect(new Set(await scrolls())).toEqual(new Set([expected]));
  });
}

for (const [size, viewport] of SIZES) {
  test(`screens: searching with a row marked, a record page (${size})`, async ({ page, staff }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const tag = `s${Date.now().toString(36)}`;
    const client = await seedClient(staff, { name: `Shots One ${tag}`, code: 'SH1' });
    await seedClient(staff, { name: `Shots Two ${tag}`, code: 'SH2', description: 'Second' });
    const server = await staff.json<Server>('POST', '/api/servers', {
      clientId: client.id,
      label: 'shots-web',
      host: 'shots.example.com',
      username: 'deploy',
    });

    await page.goto('/');
    const search = page.getByRole('searchbox', { name: 'Search clients' });
    await search.fill(tag);
    await search.press('ArrowDown');
    await expect(page.locator('[data-cursor]')).toContainText(`Shots Two ${tag}`);
    await saveScreen(page, `search-marked-${size}`);
    await expectNoAxeViolations(page, `dashboard, searching with a row marked (${size})`);

    await page.goto(`/servers/${server.body.id}`);
    await expect(page.getByRole('heading', { name: 'Status', level: 2 })).toBeVisible();
    await saveScreen(page, `server-page-${size}`, { fullPage: true });
    await expectNoAxeViolations(page, `a server's page (${size})`);
  });
}
