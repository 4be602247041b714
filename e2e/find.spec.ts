import type { Page } from '@playwright/test';
import { test, expect, seedClient } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { saveScreen } from './screens.ts';

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

test('a screen reader hears the hint and the row the arrows point at, in the list and the table', async ({
  page,
  staff,
}) => {
  const tag = await seedThree(staff);
  await page.goto('/');
  await search(page).fill(tag);
  await expect(rows(page)).toHaveCount(3);
  await expect(search(page)).toHaveAccessibleDescription(
    'Up and down arrows move through the matches, Enter opens one, Escape clears.',
  );
  // The row aria-activedescendant names: its text (in `label`), whether it is the one marked,
  // and whether it is inside the element aria-controls names, which has the tag `owner`.
  const pointedAt = (label: string, owner: string) =>
    search(page).evaluate(
      (input, { label, owner }) => {
        const id = input.getAttribute('aria-activedescendant');
        const row = id ? document.getElementById(id) : null;
        if (!row) return null;
        const controlled = document.getElementById(input.getAttribute('aria-controls') ?? '');
        return {
          text: row.querySelector(label)?.textContent,
          marked: row.hasAttribute('data-cursor'),
          inside: controlled?.matches(owner) === true && controlled.contains(row),
        };
      },
      { label, owner },
    );
  const pointedAtListRow = () => pointedAt('.mantine-NavLink-label', 'ol');
  const marked = page.locator('[data-cursor] .mantine-NavLink-label');
  await page.keyboard.press('ArrowDown');
  await expect(marked).toHaveCount(1);
  const second = await marked.textContent();
  await expect.poll(pointedAtListRow).toEqual({ text: second, marked: true, inside: true });
  await page.keyboard.press('ArrowDown');
  await expect(marked).not.toHaveText(second ?? '');
  const third = await marked.textContent();
  await expect.poll(pointedAtListRow).toEqual({ text: third, marked: true, inside: true });
  // Out of the box, no row is marked and none is pointed at.
  await page.keyboard.press('Tab');
  await expect(marked).toHaveCount(0);
  await expect(search(page)).not.toHaveAttribute('aria-activedescendant');
  await expect(search(page)).not.toHaveAttribute('aria-controls');

  // The table view names its marked row the same way: a row of the table aria-controls names.
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.getByRole('radiogroup', { name: 'View' }).getByText('Table', { exact: true }).click();
  const table = page.getByRole('table', { name: 'Clients' });
  await expect(table).toBeVisible();
  const markedRow = table.locator('[role="row"][data-cursor]');
  const pointedAtRow = () => pointedAt('a', '[role="table"]');
  await search(page).focus();
  await page.keyboard.press('ArrowDown');
  await expect(markedRow).toHaveCount(1);
  const tableSecond = await markedRow.locator('a').textContent();
  await expect.poll(pointedAtRow).toEqual({ text: tableSecond, marked: true, inside: true });
  await page.keyboard.press('ArrowDown');
  await expect(markedRow.locator('a')).not.toHaveText(tableSecond ?? '');
  const tableThird = await markedRow.locator('a').textContent();
  await expect.poll(pointedAtRow).toEqual({ text: tableThird, marked: true, inside: true });
  await saveScreen(page, 'find/table-marked-row-1366');
  await expectNoAxeViolations(page, 'the table view while searching');
  await page.keyboard.press('Tab');
  await expect(markedRow).toHaveCount(0);
  await expect(search(page)).not.toHaveAttribute('aria-activedescendant');
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
