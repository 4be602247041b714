import fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { Client } from '../src/shared/clients.ts';
import type { ClientExport } from '../src/shared/client-transfer.ts';
import type { Session } from '../src/server/testing/test-server.ts';
import { test, expect, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';

/**
 * Acting on several clients at once from the list's selection toolbar: tags, export, delete
 * with one Undo. Each test makes clients of its own under a word no other test uses, and shows
 * the list searched for that word, so what the worker left before does not matter.
 */

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Selected clients' });
const panel = (page: Page) => page.getByRole('region', { name: 'Selected Client' });

let runs = 0;
/** Three clients to select and one beside them, all found by the returned word. */
async function seedRun(staff: Session): Promise<{ word: string; chosen: Client[]; other: Client }> {
  runs += 1;
  const word = `bulk${Date.now().toString(36)}${runs}`;
  const make = (n: number, tags: string[]) =>
    seedClient(staff, {
      name: `Bulk ${word} ${n}`,
      code: `BK${n}`,
      description: word,
      tags,
      server: { host: `bulk-${n}.example`, password: `bulk-pw-${n}` },
    });
  const chosen = [await make(1, ['eu-west-1']), await make(2, []), await make(3, ['us-east-1'])];
  return { word, chosen, other: await make(4, ['eu-west-1']) };
}

/** A client's row checkbox in the list. */
const rowBox = (page: Page, client: Client) =>
  page.getByRole('checkbox', { name: `Select ${client.name} (${client.code})` });

/** The list, searched down to this run's clients, with `clients` selected. */
async function select(page: Page, word: string, clients: readonly Client[]): Promise<void> {
  await page.goto(`/?q=${word}`);
  // check(), not click(): a selection kept after the last action stays as it is.
  for (const client of clients) await rowBox(page, client).check();
}

async function tagsOf(staff: Session, client: Client): Promise<string[]> {
  return (await staff.json<Client>('GET', `/api/clients/${client.id}`)).body.tags;
}

test('adds a tag to three selected clients, checked as the form checks it', async ({
  page,
  staff,
}) => {
  const { word, chosen, other } = await seedRun(staff);
  const tag = `vip-${word}`;
  await select(page, word, chosen);

  await toolbar(page).getByRole('button', { name: 'Add tag' }).click();
  const add = page.getByRole('dialog', { name: 'Add a tag to 3 clients' });
  // The form's tag rules, next to the field, before anything is sent.
  await add.getByLabel('Tag to add').fill('x'.repeat(101));
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add.getByText('Each tag must be at most 100 characters')).toBeVisible();
  await expect(add.getByLabel('Tag to add')).toHaveAttribute('aria-invalid', 'true');
  await add.getByLabel('Tag to add').fill(tag);
  await saveScreen(page, 'bulk-actions/add-tag');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(`Tag ${tag} added to 3 clients.`)).toBeVisible();
  await expect(add).toHaveCount(0);

  // After each one's own tags: the first, the deploy server, stays first.
  expect(await tagsOf(staff, chosen[0]!)).toEqual(['eu-west-1', tag]);
  expect(await tagsOf(staff, chosen[1]!)).toEqual([tag]);
  expect(await tagsOf(staff, chosen[2]!)).toEqual(['us-east-1', tag]);
  expect(await tagsOf(staff, other)).toEqual(['eu-west-1']);
  // Each one shows it, with its own `edited tags` in its history.
  for (const client of chosen) {
    await page.getByRole('link', { name: `${client.name} (${client.code})` }).click();
    await expect(panel(page).getByRole('heading', { name: client.name })).toBeVisible();
    await expect(panel(page).getByRole('button', { name: `Filter by tag ${tag}` })).toBeVisible();
    await expect(
      panel(page).getByRole('list', { name: 'History' }).getByRole('listitem').first(),
    ).toHaveText(/^grace-\S+@example\.test edited tags/);
  }
});

test('removes a tag from three selected clients, by keyboard only', async ({ page, staff }) => {
  const { word, chosen, other } = await seedRun(staff);
  const tag = `old-${word}`;
  await staff.json('POST', '/api/clients/bulk/tags', {
    ids: [...chosen, other].map((c) => c.id),
    add: [tag],
  });
  await select(page, word, chosen);

  // Focus the button, Enter, type, Enter: no pointer anywhere.
  const removeButton = toolbar(page).getByRole('button', { name: 'Remove tag' });
  await removeButton.focus();
  await page.keyboard.press('Enter');
  const remove = page.getByRole('dialog', { name: 'Remove a tag from 3 clients' });
  await expect(remove.getByLabel('Tag to remove')).toBeFocused();
  await page.keyboard.type(tag);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Tag ${tag} removed from 3 clients.`)).toBeVisible();
  await expect(remove).toHaveCount(0);
  expect(await tagsOf(staff, chosen[0]!)).toEqual(['eu-west-1']);
  expect(await tagsOf(staff, chosen[1]!)).toEqual([]);
  expect(await tagsOf(staff, chosen[2]!)).toEqual(['us-east-1']);
  // The client left out of the selection keeps it.
  expect(await tagsOf(staff, other)).toEqual(['eu-west-1', tag]);
});

test('deletes three selected clients after one confirmation, and one Undo brings them back', async ({
  page,
  staff,
}) => {
  const { word, chosen, other } = await seedRun(staff);
  await select(page, word, chosen);

  await toolbar(page).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 3 clients?' });
  await expect(confirm).toBeVisible();
  await saveScreen(page, 'bulk-actions/delete-confirm');
  await confirm.getByRole('button', { name: 'Delete' }).click();

  // Held under the pointer while the checks below run: Undo is offered for 10 s.
  await page.getByText('3 clients deleted.').hover();
  for (const client of chosen) {
    await expect(rowBox(page, client)).toHaveCount(0);
    expect((await staff.json('GET', `/api/clients/${client.id}`)).status).toBe(404);
  }
  await expect(rowBox(page, other)).toBeVisible();

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('3 clients restored.')).toBeVisible();
  for (const client of chosen) await expect(rowBox(page, client)).toBeVisible();
  // Back as they were, with their history.
  const restored = (await staff.json<Client>('GET', `/api/clients/${chosen[0]!.id}`)).body;
  expect(restored).toEqual(chosen[0]);
  await page.goto(`/clients/${chosen[0]!.id}?q=${word}`);
  await expect(panel(page).getByRole('list', { name: 'History' }).getByRole('listitem')).toHaveText(
    [
      /^grace-\S+@example\.test restored it after a delete/,
      /^grace-\S+@example\.test deleted it/,
      /^grace-\S+@example\.test created it/,
    ],
  );
});

test('exports exactly the selected clients, with passwords only when asked', async ({
  page,
  staff,
}) => {
  const { word, chosen, other } = await seedRun(staff);
  await select(page, word, chosen);

  await toolbar(page).getByRole('button', { name: 'Export' }).click();
  let dialog = page.getByRole('dialog', { name: 'Export 3 clients' });
  let download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  let file = await download;
  expect(file.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}\.json$/);
  let content = JSON.parse(fs.readFileSync(await file.path(), 'utf8')) as ClientExport;
  expect(content.includesSecrets).toBe(false);
  expect(content.clients.map((c) => c.id).sort()).toEqual(chosen.map((c) => c.id).sort());
  expect(content.clients.some((c) => c.id === other.id)).toBe(false);
  expect(JSON.stringify(content)).not.toContain('bulk-pw-');
  await expect(page.getByText('3 clients exported.')).toBeVisible();

  await select(page, word, chosen);
  await toolbar(page).getByRole('button', { name: 'Export' }).click();
  dialog = page.getByRole('dialog', { name: 'Export 3 clients' });
  await dialog.getByRole('checkbox', { name: 'Include passwords' }).check();
  await expect(
    dialog.getByText("The file will hold these clients' server passwords in clear"),
  ).toBeVisible();
  download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export with passwords' }).click();
  file = await download;
  expect(file.suggestedFilename()).toMatch(/-with-passwords\.json$/);
  content = JSON.parse(fs.readFileSync(await file.path(), 'utf8')) as ClientExport;
  expect(content.clients.map((c) => c.server.password).sort()).toEqual([
    'bulk-pw-1',
    'bulk-pw-2',
    'bulk-pw-3',
  ]);
  await page.goto(`/clients/${chosen[1]!.id}?q=${word}`);
  await expect(
    panel(page).getByRole('list', { name: 'History' }).getByRole('listitem').first(),
  ).toHaveText(/^grace-\S+@example\.test read the password in an export/);
});
