import type { Page } from '@playwright/test';
import type { Client } from '../src/shared/clients.ts';
import { test, expect, seedClient } from './fixtures.ts';

const rows = (page: Page) => page.getByRole('navigation', { name: 'Clients' }).getByRole('link');
const sortBy = (page: Page) => page.getByLabel('Sort by');

/** Three clients of a tag of their own: the worker's other tests leave clients behind. */
async function seedThree(staff: Parameters<typeof seedClient>[0]) {
  const tag = `v${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const emile = await seedClient(staff, {
    name: `Émile ${tag}`,
    code: 'B2',
    startDate: '2024-05-01',
    tags: [tag],
    server: { host: `emile.${tag}.example` },
  });
  const zoe = await seedClient(staff, {
    name: `Zoë ${tag}`,
    code: 'A10',
    startDate: '2020-01-01',
    tags: [tag],
  });
  const adam = await seedClient(staff, { name: `adam ${tag}`, code: 'A9', tags: [tag] });
  return { tag, emile, zoe, adam };
}

/** Changes a client through the API, so it becomes the latest changed. */
async function touch(staff: Parameters<typeof seedClient>[0], client: Client): Promise<void> {
  const { id, version, name, code, tags, startDate, server } = client;
  const response = await staff.json('PUT', `/api/clients/${id}`, {
    name,
    code,
    tags,
    startDate,
    server: { host: server.host },
    description: 'touched',
    version,
  });
  expect(response.status).toBe(200);
}

test('sorts by name, code, start date and last change, kept in the URL across a reload', async ({
  page,
  staff,
}) => {
  const { tag, emile } = await seedThree(staff);
  await touch(staff, emile);
  await page.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
  const names = (...list: string[]) => list.map((n) => new RegExp(`${n} ${tag}`));
  // The default: the order the clients were added in.
  await expect(rows(page)).toHaveText(names('Émile', 'Zoë', 'adam'));
  await expect(sortBy(page)).toHaveValue('');

  await sortBy(page).selectOption({ label: 'Name, A to Z' });
  await expect(rows(page)).toHaveText(names('adam', 'Émile', 'Zoë'));
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await sortBy(page).selectOption({ label: 'Name, Z to A' });
  await expect(rows(page)).toHaveText(names('Zoë', 'Émile', 'adam'));
  await sortBy(page).selectOption({ label: 'Code, A to Z' });
  await expect(rows(page)).toHaveText(names('adam', 'Zoë', 'Émile'));
  // Adam's start date is the day he was added: today.
  await sortBy(page).selectOption({ label: 'Start date, newest first' });
  await expect(rows(page)).toHaveText(names('adam', 'Émile', 'Zoë'));
  await sortBy(page).selectOption({ label: 'Start date, oldest first' });
  await expect(rows(page)).toHaveText(names('Zoë', 'Émile', 'adam'));
  await sortBy(page).selectOption({ label: 'Last change, newest first' });
  await expect(rows(page)).toHaveText(names('Émile', 'adam', 'Zoë'));
  await expect(page).toHaveURL(/[?&]sort=-changed(&|$)/);
  // The row numbers follow the order shown.
  await expect(rows(page).first()).toContainText('1.');

  await page.reload();
  await expect(sortBy(page)).toHaveValue('-changed');
  await expect(rows(page)).toHaveText(names('Émile', 'adam', 'Zoë'));
  // Opening a client keeps the order and the search.
  await rows(page).nth(1).click();
  await expect(page).toHaveURL(/\/clients\/[^?]+\?.*sort=-changed/);
  await expect(page).toHaveURL(/[?&]q=tag/);
  await expect(rows(page)).toHaveText(names('Émile', 'adam', 'Zoë'));

  await sortBy(page).selectOption({ label: 'Date added' });
  await expect(page).not.toHaveURL(/sort=/);
  await expect(rows(page)).toHaveText(names('Émile', 'Zoë', 'adam'));
});
