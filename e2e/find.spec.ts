import type { Page } from '@playwright/test';
import { test, expect, seedClient } from './fixtures.ts';

const search = (page: Page) => page.getByRole('searchbox', { name: 'Search clients' });
const rows = (page: Page) => page.getByRole('navigation', { name: 'Clients' }).getByRole('link');

async function seedThree(staff: Parameters<typeof seedClient>[0]) {
  const tag = `t${Date.now().toString(36)}`;
  await seedClient(staff, { name: `Crème Café ${tag}`, code: 'CAF', tags: [tag, 'shop'] });
  await seedClient(staff, {
    name: `Acme ${tag}`,
    code: 'ACM',
    server: { host: `${tag}.example.com` },
  });
  await seedClient(staff, { name: `Zebra ${tag}`, code: 'ZB', description: `Stripes ${tag}` });
  return tag;
}

test('typing filters by name, code, host and description, ignoring case and accents', async ({
  page,
  staff,
}) => {
  const tag = await seedThree(staff);
  await page.goto('/');
  await search(page).fill(`CREME ${tag}`);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`Crème Café ${tag} (CAF)`);
  await expect(rows(page).first()).toContainText('1.');
  await search(page).fill(`${tag}.example`);
  await expect(rows(page)).toHaveText([new RegExp(`Acme ${tag}`)]);
  await search(page).fill(`stripes ${tag}`);
  await expect(rows(page)).toHaveText([new RegExp(`1\\.Zebra ${tag}`)]);
  await expect(page).toHaveURL(/\?q=stripes/);
});

test('the filter is in the URL, so a reload keeps it', async ({ page, staff }) => {
  const tag = await seedThree(staff);
  await page.goto(`/?q=${encodeURIComponent(`zebra ${tag}`)}`);
  await expect(search(page)).toHaveValue(`zebra ${tag}`);
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().click();
  await expect(page).toHaveURL(/\/clients\/[^?]+\?q=zebra/);
  await page.reload();
  await expect(search(page)).toHaveValue(`zebra ${tag}`);
  await expect(rows(page)).toHaveCount(1);
});

test('slash focuses, arrows move, Enter opens, Escape clears', async ({ page, staff }) => {
  const tag = await seedThree(staff);
  await page.goto('/');
  // A person presses `/` once they see the list; the shortcut lives in the list's code. The
  // worker's earlier tests may have left enough clients to push these three out of view.
  await expect(rows(page).first()).toBeVisible();
  await page.locator('body').press('/');
  await expect(search(page)).toBeFocused();
  await expect(search(page)).toHaveValue('');
  await page.keyboard.type(tag);
  await expect(rows(page)).toHaveCount(3);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('region', { name: 'Selected Client' }).getByRole('heading', {
      name: `Acme ${tag} (ACM)`,
    }),
  ).toBeVisible();
  await search(page).press('Escape');
  await expect(search(page)).toHaveValue('');
  await expect(page).not.toHaveURL(/q=/);
});

test('keys typed while the URL catches up are all kept', async ({ page, staff }) => {
  const tag = await seedThree(staff);
  await page.goto('/');
  await expect(rows(page).first()).toBeVisible();
  // Keys a little slower than the URL's pause: each write to the URL lands while the next key
  // is being typed, which once put the box back to the shorter text.
  const text = `zebra ${tag}`;
  await search(page).pressSequentially(text, { delay: 190 });
  await expect(search(page)).toHaveValue(text);
  await expect(rows(page)).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`\\?q=zebra\\+${tag}$`));
});

test('a tag chip filters by that tag; no match says so', async ({ page, staff }) => {
  const tag = await seedThree(staff);
  const cafe = (
    await staff.json<{ clients: { id: string; name: string }[] }>('GET', '/api/clients')
  ).body.clients.find((c) => c.name === `Crème Café ${tag}`)!;
  await page.goto(`/clients/${cafe.id}`);
  await page.getByRole('button', { name: `Filter by tag ${tag}` }).click();
  await expect(search(page)).toHaveValue(`tag:${tag}`);
  await expect(rows(page)).toHaveCount(1);
  await search(page).fill(`no such client ${tag}`);
  await expect(page.getByText(`No clients match “no such client ${tag}”.`)).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).first().click();
  await expect(search(page)).toHaveValue('');
});
