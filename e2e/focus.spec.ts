import type { Locator, Page } from '@playwright/test';
import { test, expect, seedClient } from './fixtures.ts';

/*
 * Where keyboard focus goes: into the form when it opens, back to where it came from when it
 * closes, onto the saved client after Save, onto Undo after Delete. Each step is driven by keys,
 * as someone without a mouse would.
 */

const panel = (page: Page) => page.getByRole('region', { name: 'Selected Client' });
const nameField = (page: Page) => page.getByLabel('Name', { exact: true });
const clientRow = (page: Page, name: string | RegExp) =>
  page.getByRole('navigation', { name: 'Clients' }).getByRole('link', { name });

/**
 * Presses `key` until `target` has focus; fails if it is not reached within `limit` presses.
 * Pressing and looking, rather than counting presses, also suits a menu: Mantine moves focus
 * into it on opening in two steps, a moment apart, and an arrow pressed between them is undone.
 */
async function pressTo(page: Page, key: 'Tab' | 'ArrowDown', target: Locator, limit: number) {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

const tabTo = (page: Page, target: Locator, limit = 60) => pressTo(page, 'Tab', target, limit);

test('+ puts focus in Name; Escape closes a clean form and focus goes back to +', async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/');
  const add = page.getByRole('button', { name: 'Add client' });
  await add.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Add Client' })).toBeVisible();
  await expect(nameField(page)).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Add Client' })).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(add).toBeFocused();
});

test('Edit puts focus in Name; Escape on a changed form asks before discarding', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: `Escape Edit ${Date.now()}` });
  await page.goto(`/clients/${client.id}`);
  const actions = page.getByRole('button', { name: 'Client actions' });
  await actions.click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(nameField(page)).toBeFocused();

  await page.keyboard.type(' changed');
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
  // The question takes the focus once it has finished opening; a click before that, while it
  // still moves into place, can land beside its button on a busy machine.
  const settled = () => expect(ask.locator(':focus')).toHaveCount(1);
  await settled();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toHaveCount(0);
  await expect(nameField(page)).toHaveValue(`${client.name} changed`);
  await expect(nameField(page)).toBeFocused();

  // Escape in the question closes only the question. Until the question has the focus, an
  // Escape still reaches the form.
  await page.keyboard.press('Escape');
  await settled();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeVisible();

  // Escape twice before the question has the focus: one question, not one for each.
  await nameField(page).evaluate((field) => {
    for (let i = 0; i < 2; i++) {
      field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    }
  });
  await settled();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toHaveCount(0);
  await expect(nameField(page)).toBeFocused();

  await page.keyboard.press('Escape');
  await settled();
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toHaveCount(0);
  await expect(panel(page).getByRole('heading', { name: client.name })).toBeVisible();
  await expect(actions).toBeFocused();
  const stored = await staff.json<{ name: string }>('GET', `/api/clients/${client.id}`);
  expect(stored.body.name).toBe(client.name);
});

test('the client actions menu: focus on its first item, arrows move, Escape goes back', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: `Menu Keys ${Date.now()}` });
  await page.goto(`/clients/${client.id}`);
  const actions = panel(page).getByRole('button', { name: 'Client actions' });
  await actions.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  const item = (name: string) => menu.getByRole('menuitem', { name });
  await expect(item('Edit')).toBeFocused();
  for (const [key, name] of [
    ['ArrowDown', 'Duplicate'],
    ['ArrowDown', 'Delete'],
    // Round from the last to the first, and back.
    ['ArrowDown', 'Edit'],
    ['ArrowUp', 'Delete'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(item(name)).toBeFocused();
  }
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(actions).toBeFocused();
});

test('by keyboard: add, save, duplicate, delete and undo, focus following each step', async ({
  page,
  staff,
}) => {
  void staff;
  const name = `Keyboard Path ${Date.now()}`;
  // Searched for its own name, so the new client and its copy have rows drawn in the list
  // whatever the worker's earlier tests left.
  await page.goto(`/?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole('heading', { name: 'Clients', exact: true })).toBeVisible();

  // The skip link is the first stop and lands in the main content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main-content')).toBeFocused();

  // Add: the + button is the first stop in the main content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Add client' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(nameField(page)).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Client Saved!')).toBeVisible();
  const row = clientRow(page, name);
  await expect(row).toBeFocused();

  // Duplicate from the panel's actions menu.
  const actions = panel(page).getByRole('button', { name: 'Client actions' });
  await tabTo(page, actions);
  await page.keyboard.press('Enter');
  await pressTo(page, 'ArrowDown', page.getByRole('menuitem', { name: 'Duplicate' }), 6);
  await page.keyboard.press('Enter');
  const duplicate = page.getByRole('dialog', { name: 'Duplicate client' });
  await tabTo(page, duplicate.getByRole('button', { name: 'Duplicate' }), 5);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Client duplicated.')).toBeVisible();
  const copy = clientRow(page, `${name} (Clone)`);
  await expect(copy).toBeFocused();

  // Delete the copy: open it, then its actions menu.
  await page.keyboard.press('Enter');
  await expect(panel(page).getByRole('heading', { name: `${name} (Clone)` })).toBeVisible();
  await tabTo(page, actions);
  await page.keyboard.press('Enter');
  await pressTo(page, 'ArrowDown', page.getByRole('menuitem', { name: 'Delete' }), 6);
  await page.keyboard.press('Enter');
  const remove = page.getByRole('dialog', { name: 'Delete client' });
  await tabTo(page, remove.getByRole('button', { name: 'Delete' }), 5);
  await page.keyboard.press('Enter');

  // The copy's row and panel are gone: focus is on Undo, which holds the notification open.
  const undo = page.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();
  await expect(copy).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`${name} (Clone) restored.`)).toBeVisible();
  await expect(clientRow(page, `${name} (Clone)`)).toBeFocused();
});

test('a field in error is marked invalid and names its message; focus goes to it', async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/');
  await page.getByRole('button', { name: 'Add client' }).click();
  await nameField(page).fill('x'.repeat(201));
  await page.getByRole('textbox', { name: 'Domain 1' }).fill('ftp://files.example');
  await page.getByRole('button', { name: 'Save' }).click();

  const name = nameField(page);
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  const domain = page.getByRole('textbox', { name: 'Domain 1' });
  await expect(domain).toHaveAttribute('aria-invalid', 'true');
  for (const [field, message] of [
    [name, 'Must be at most 200 characters'],
    [domain, 'Must be an http:// or https:// URL'],
  ] as const) {
    const ids = (await field.getAttribute('aria-describedby'))?.split(' ') ?? [];
    expect(ids.length).toBeGreaterThan(0);
    const described = await Promise.all(
      ids.map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    expect(described.join(' ')).toContain(message);
  }
});

test('the password show/hide button is reached by Tab and says what it does', async ({ page }) => {
  await page.goto('/sign-in');
  const password = page.getByLabel('Password');
  await password.fill('secret phrase');
  await password.focus();
  await page.keyboard.press('Tab');
  const show = page.getByRole('button', { name: 'Show the value' });
  await expect(show).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Hide the value' })).toBeFocused();
});

test('a focused text input has a visible ring outside its border', async ({ page, staff }) => {
  void staff;
  await page.goto('/');
  const search = page.getByRole('searchbox', { name: 'Search clients' });
  const outline = () =>
    search.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: style.outlineWidth };
    });
  expect((await outline()).style).toBe('none');
  await search.focus();
  await expect.poll(outline).toEqual({ style: 'solid', width: '2px' });
});
