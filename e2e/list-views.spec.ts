import type { Page, Request } from '@playwright/test';
import type { Client } from '../src/shared/clients.ts';
import { test, expect, holdBack, seedClient, signInContext } from './fixtures.ts';

const rows = (page: Page) => page.getByRole('navigation', { name: 'Clients' }).getByRole('link');
const sortBy = (page: Page) => page.getByLabel('Sort by');
/** The View control's inputs are hidden under their labels, which take the click. */
const chooseView = (page: Page, view: 'List' | 'Table') =>
  page.getByRole('radiogroup', { name: 'View' }).getByText(view, { exact: true }).click();

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

const table = (page: Page) => page.getByRole('table', { name: 'Clients' });
const tableRows = (page: Page) => table(page).getByRole('rowgroup').nth(1).getByRole('row');

test('the table view shows the columns, sorts by its headers and opens a client', async ({
  page,
  staff,
}) => {
  const { tag, emile } = await seedThree(staff);
  const { body: me } = await staff.json<{ email: string }>('GET', '/api/me');
  await page.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
  await expect(rows(page)).toHaveCount(3);
  await chooseView(page, 'Table');
  await expect(table(page)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Clients' })).toHaveCount(0);
  await expect(table(page).getByRole('columnheader')).toHaveText([
    'Select',
    /^Name/,
    /^Code/,
    'First tag',
    'Host',
    /^Start date/,
    /^Last changed by/,
  ]);
  await expect(tableRows(page)).toHaveCount(3);
  await expect(tableRows(page).first().getByRole('cell')).toHaveText([
    '1.',
    `Émile ${tag} (B2)`,
    'B2',
    tag,
    `emile.${tag}.example`,
    'May 1, 2024',
    me.email,
  ]);

  // A header is a button that sets the same ?sort= as the select.
  const nameHeader = table(page).getByRole('columnheader', { name: /^Name/ });
  await expect(nameHeader).toHaveAttribute('aria-sort', 'none');
  await nameHeader.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByLabel('Sort by')).toHaveValue('name');
  await expect(tableRows(page).getByRole('link')).toHaveText([
    `adam ${tag} (A9)`,
    `Émile ${tag} (B2)`,
    `Zoë ${tag} (A10)`,
  ]);
  await nameHeader.getByRole('button').click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);

  // A click on the row opens the client, as the list's link does; the row is marked.
  await tableRows(page).nth(1).getByRole('cell').nth(2).click();
  await expect(page).toHaveURL(new RegExp(`/clients/${emile.id}\\?`));
  await expect(tableRows(page).nth(1).getByRole('link')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('heading', { name: `Émile ${tag}` })).toBeVisible();
  // Enter on a row's link opens it too.
  await tableRows(page).first().getByRole('link').press('Enter');
  await expect(page).toHaveURL(/\/clients\/[^?]+\?/);
  await expect(page).not.toHaveURL(new RegExp(`/clients/${emile.id}\\?`));
});

test('the view is kept for the person: another browser opens on it, a phone shows the list', async ({
  page,
  staff,
  browser,
}) => {
  // Two browsers and a server round trip for each view change: more than one page's share.
  test.slow();
  const { tag } = await seedThree(staff);
  await page.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
  await chooseView(page, 'Table');
  await expect(tableRows(page)).toHaveCount(3);
  await expect
    .poll(async () => (await staff.json<{ listView: string }>('GET', '/api/me')).body.listView)
    .toBe('table');

  // The same person in another browser finds the table.
  const other = await browser.newContext();
  try {
    await signInContext(other, staff);
    const otherPage = await other.newPage();
    await otherPage.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
    await expect(table(otherPage)).toBeVisible();
    await expect(otherPage.getByRole('radio', { name: 'Table' })).toBeChecked();
    // On a phone the table's columns do not fit: the list is shown.
    await otherPage.setViewportSize({ width: 390, height: 844 });
    await expect(rows(otherPage)).toHaveCount(3);
    await expect(table(otherPage)).toHaveCount(0);
  } finally {
    await other.close();
  }

  // Back to the list, for this browser and the next.
  await chooseView(page, 'List');
  await expect(rows(page)).toHaveCount(3);
  await expect
    .poll(async () => (await staff.json<{ listView: string }>('GET', '/api/me')).body.listView)
    .toBe('list');
  await page.reload();
  await expect(rows(page)).toHaveCount(3);
});

test('a view chosen while the user is being fetched again stays chosen', async ({
  page,
  staff,
}) => {
  const { tag } = await seedThree(staff);
  // Every query is fetched again when the live stream connects. Hold that second fetch of the
  // user, read by the server before the choice is saved, until the save has been answered: an
  // answer this old must not put the list back.
  let meFetches = 0;
  let staleRead!: () => void;
  const read = new Promise<void>((resolve) => (staleRead = resolve));
  let saveAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (saveAnswered = resolve));
  await page.route('**/api/me', async (route) => {
    meFetches += 1;
    if (meFetches !== 2) return route.continue();
    const stale = await route.fetch();
    staleRead();
    await answered;
    // The page may have given up on this fetch by now, which is what a fix may do.
    await route.fulfill({ response: stale }).catch(() => undefined);
  });
  await page.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
  await expect(rows(page)).toHaveCount(3);
  await read;

  const meSettled = new Promise<void>((resolve) => {
    const settled = (request: Request) => {
      if (new URL(request.url()).pathname === '/api/me') resolve();
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
  });
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/auth/update-user'));
  await chooseView(page, 'Table');
  expect((await saved).status()).toBe(200);
  saveAnswered();
  await meSettled;
  // The old answer, if the page took it, is parsed and drawn within the frames after it came.
  await page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  await expect(page.getByRole('radio', { name: 'Table' })).toBeChecked();
  await expect(tableRows(page)).toHaveCount(3);
});

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Selected clients' });
const box = (page: Page, name: string) =>
  page.getByRole('checkbox', { name: new RegExp(`^Select ${name}`) });

test('rows are selected by box, Shift-click range, Ctrl+A and cleared by Escape', async ({
  page,
  staff,
}) => {
  const { tag } = await seedThree(staff);
  const extra = await seedClient(staff, { name: `Yann ${tag}`, code: 'Y1', tags: [tag] });
  await page.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
  await expect(rows(page)).toHaveCount(4);
  await expect(toolbar(page)).toHaveCount(0);

  // A click on the box selects the row and opens nothing.
  await box(page, `Émile ${tag} \\(B2\\)`).click();
  await expect(box(page, `Émile ${tag}`)).toBeChecked();
  await expect(page).not.toHaveURL(/\/clients\//);
  await expect(toolbar(page).getByRole('status')).toHaveText('1 selected');
  // Shift-click: every row from the last box clicked.
  await box(page, `Yann ${tag}`).click({ modifiers: ['Shift'] });
  await expect(toolbar(page).getByRole('status')).toHaveText('4 selected');
  await box(page, `Zoë ${tag}`).click();
  await expect(toolbar(page).getByRole('status')).toHaveText('3 selected');
  // A click on the row still opens the client.
  await rows(page).nth(1).click();
  await expect(page).toHaveURL(/\/clients\//);
  await expect(toolbar(page).getByRole('status')).toHaveText('3 selected');

  // Escape in the list clears; Ctrl+A in the list selects every match, not the page's text.
  await box(page, `adam ${tag}`).focus();
  await page.keyboard.press('Escape');
  await expect(toolbar(page)).toHaveCount(0);
  await expect(box(page, `adam ${tag}`)).not.toBeChecked();
  await box(page, `adam ${tag}`).focus();
  await page.keyboard.press('ControlOrMeta+a');
  await expect(toolbar(page).getByRole('status')).toHaveText('4 selected');
  expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');

  // A narrower search keeps the others selected and says so.
  await page.getByRole('searchbox', { name: 'Search clients' }).fill(`zoë ${tag}`);
  await expect(rows(page)).toHaveCount(1);
  await expect(toolbar(page).getByRole('status')).toHaveText(
    '4 selected (3 not shown by the search)',
  );
  // A client deleted elsewhere leaves the selection.
  expect((await staff.json('DELETE', `/api/clients/${extra.id}`)).status).toBe(204);
  await expect(toolbar(page).getByRole('status')).toHaveText(
    '3 selected (2 not shown by the search)',
  );
  await toolbar(page).getByRole('button', { name: 'Clear selection' }).click();
  await expect(toolbar(page)).toHaveCount(0);
});

test('the selection bar comes whole with the first box, and no row moves when its code does', async ({
  page,
  staff,
}) => {
  const { tag } = await seedThree(staff);
  // The bulk actions' code loads on first use: held back here, as a loaded machine or a slow
  // link would.
  const bulkActionsCode = /\/assets\/bulk-actions-[^/]+\.js$/;
  const release = await holdBack(page, bulkActionsCode);
  await page.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
  await expect(rows(page)).toHaveCount(3);
  const asked = page.waitForRequest(bulkActionsCode);
  await box(page, `Émile ${tag} \\(B2\\)`).click();
  await expect(box(page, `Émile ${tag}`)).toBeChecked();
  await asked;
  // The bar is there before its actions' code, at its full size: their buttons, disabled.
  await expect(toolbar(page).getByRole('status')).toHaveText('1 selected');
  const addTag = toolbar(page).getByRole('button', { name: 'Add tag' });
  await expect(addTag).toBeDisabled();
  const before = await box(page, `adam ${tag}`).boundingBox();
  release();
  await expect(addTag).toBeEnabled();
  // A Shift-click aimed at a row once the code is in lands where it was aimed before.
  expect(await box(page, `adam ${tag}`).boundingBox()).toEqual(before);
  await box(page, `adam ${tag}`).click({ modifiers: ['Shift'] });
  await expect(toolbar(page).getByRole('status')).toHaveText('3 selected');
});

test('the table selects the same way, and its box opens nothing', async ({ page, staff }) => {
  const { tag } = await seedThree(staff);
  await page.goto(`/?q=${encodeURIComponent(`tag:${tag}`)}`);
  await chooseView(page, 'Table');
  await expect(tableRows(page)).toHaveCount(3);
  await box(page, `Émile ${tag}`).click();
  await expect(toolbar(page).getByRole('status')).toHaveText('1 selected');
  await box(page, `adam ${tag}`).click({ modifiers: ['Shift'] });
  await expect(toolbar(page).getByRole('status')).toHaveText('3 selected');
  await expect(page).not.toHaveURL(/\/clients\//);
  await page.keyboard.press('Escape');
  await expect(toolbar(page)).toHaveCount(0);
  await tableRows(page).first().getByRole('link').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await expect(toolbar(page).getByRole('status')).toHaveText('3 selected');
  await chooseView(page, 'List');
});
