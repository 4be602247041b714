import { test, expect, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';

test('Undo on the delete notification restores the client with its id and history', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Oops', code: 'OPS', tags: ['eu'] });
  await page.goto(`/clients/${client.id}`);
  await page.getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Client deleted.')).toBeVisible();
  await expect(page.getByText('No client selected')).toBeVisible();
  await expect(page.getByRole('link', { name: /Oops \(OPS\)/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Oops (OPS) restored.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}$`));
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(panel.getByRole('heading', { name: 'Oops (OPS)' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Oops \(OPS\)/ })).toBeVisible();
  await expect(panel.getByRole('list', { name: 'History' }).getByRole('listitem')).toHaveText([
    /^grace-\S+@example\.test restored it after a delete/,
    /^grace-\S+@example\.test deleted it/,
    /^grace-\S+@example\.test created it/,
  ]);
});

test('the colour scheme follows the system until toggled, and the toggle can go back', async ({
  page,
  staff,
}) => {
  void staff;
  const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect.poll(scheme).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(scheme).toBe('light');

  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect.poll(scheme).toBe('dark');
  await page.reload();
  await expect.poll(scheme).toBe('dark');
  // Back to the system's own scheme: it follows the system again.
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(scheme).toBe('dark');
});

test('on a phone the dashboard fits the width', async ({ page, staff }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const client = await seedClient(staff, {
    name: 'A client with a rather long name for a narrow screen',
    tags: ['eu-west-1', 'shop', 'another-long-tag-name'],
    domains: ['https://a-very-long-subdomain.of-a-long-domain.example.com/and/a/path'],
    server: { host: 'a-really-long-host-name.example.com' },
  });
  await page.goto(`/clients/${client.id}`);
  await expect(page.getByRole('region', { name: 'Selected Client' })).toBeVisible();
  // The region first holds the panel's loading frame: measure the panel itself.
  await expect(page.getByRole('heading', { name: client.name })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  // The panel stacks under the list rather than beside it.
  const listTop = await page.getByRole('button', { name: 'Add client' }).boundingBox();
  const panelBox = await page.getByRole('region', { name: 'Selected Client' }).boundingBox();
  expect(panelBox!.y).toBeGreaterThan(listTop!.y + listTop!.height);
  expect(panelBox!.width).toBeGreaterThan(300);
  await saveScreen(page, 'comfort/phone-dashboard', { fullPage: true });
});
