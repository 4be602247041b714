import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { saveScreen } from './screens.ts';

/**
 * The reference page of the API: Swagger UI, from this server's own files, signed in, with
 * api-docs-theme.ts's colours and names so axe finds nothing, as on every other screen. Each
 * view is its own test: a scan of the whole reference takes seconds, several times that on a
 * loaded 2-core machine, and three in one test outgrew one test's time bound there.
 */

/** Opens the reference at `width` and returns what the browser refused or threw meanwhile. */
async function openReference(page: Page, width: number, height: number): Promise<string[]> {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  page.on('pageerror', (error) => refused.push(error.message));
  await page.setViewportSize({ width, height });
  await page.goto('/api/docs');
  await expect(page).toHaveTitle('Clients Manager API');
  await expect(page.getByRole('heading', { name: /Clients Manager API/ })).toBeVisible();
  const listServers = page.locator('#operations-servers-get_api_servers');
  await expect(listServers).toBeVisible();
  await expect(listServers).toContainText('GET');
  await expect(listServers).toContainText('/api/servers');
  return refused;
}

test('the API reference at /api/docs shows the operations, without CSP errors or axe violations', async ({
  page,
  staff,
}) => {
  void staff;
  const refused = await openReference(page, 1366, 768);
  await saveScreen(page, 'api-docs/api-docs-1366');
  await expectNoAxeViolations(page, 'the API reference at 1366');
  expect(refused).toEqual([]);
});

test('an open operation of the API reference names its controls and passes axe', async ({
  page,
  staff,
}) => {
  void staff;
  const refused = await openReference(page, 1366, 768);
  const listServers = page.locator('#operations-servers-get_api_servers');
  await listServers.getByRole('button').first().click();
  await expect(page.getByText('Servers, of every client or filtered').first()).toBeVisible();
  // The one control Swagger UI leaves unnamed: a parameter's allowed values.
  await expect(listServers.getByRole('combobox', { name: 'status' })).toBeVisible();
  await saveScreen(page, 'api-docs/api-docs-open-1366');
  await expectNoAxeViolations(page, 'an open operation at 1366');
  expect(refused).toEqual([]);
});

test('the API reference on a phone passes axe', async ({ page, staff }) => {
  void staff;
  const refused = await openReference(page, 390, 844);
  await saveScreen(page, 'api-docs/api-docs-390');
  await expectNoAxeViolations(page, 'the API reference at 390');
  expect(refused).toEqual([]);
});
