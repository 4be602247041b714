import { createHmac } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test as base, expect, holdBack, seedClient } from './fixtures.ts';
import { expectNoAxeViolations, switchScheme } from './axe.ts';
import { expectUncovered } from './uncovered.ts';
import { PERSON_EVENT_KINDS } from '../src/shared/events.ts';
import { setAccess } from '../src/server/testing/access.ts';
import { WebhookReceiver } from '../src/server/testing/webhook-receiver.ts';
import type { Session } from '../src/server/testing/test-server.ts';
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookPayloadSchema,
} from '../src/shared/webhooks.ts';
import { saveScreen } from './screens.ts';

/**
 * `admin`: the test's staff member, made an administrator (webhooks are theirs alone);
 * `receiver`: a receiver of deliveries on 127.0.0.1 for the test, closed after it.
 */
const test = base.extend<{ admin: Session; receiver: WebhookReceiver }>({
  admin: async ({ server, staff }, use) => {
    await setAccess(server, staff, { role: 'admin' });
    await use(staff);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
  receiver: async ({}, use) => {
    const receiver = await new WebhookReceiver().start();
    await use(receiver);
    await receiver.close();
  },
});

// Each test takes several axe scans and screenshots: longer than the default on a loaded machine.
test.describe.configure({ timeout: 120_000 });

/** Deletes an endpoint from its actions menu in `scope`, answering the question. */
async function deleteEndpoint(page: Page, scope: Locator, url: string): Promise<void> {
  await scope.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this endpoint?' })
    .getByRole('button', { name: 'Delete' })
    .click();
}

/** Scrolls the Webhooks section to the top of the window, for a screenshot of it. */
async function showSection(page: Page) {
  await page
    .getByRole('region', { name: 'Webhooks' })
    .evaluate((section) => section.scrollIntoView({ block: 'start' }));
}

/** The top of the Deliveries drawer, which a notification must not cover. */
function drawerTop(drawer: Locator): Record<string, Locator> {
  return {
    "the drawer's title": drawer.getByRole('heading', { name: 'Deliveries' }),
    "the drawer's Close": drawer.getByRole('button', { name: 'Close' }),
    'the address it delivers to': drawer.getByText(/A failed delivery is tried again/),
  };
}

test('an administrator adds an endpoint, sees its secret once, and sees a signed delivery', async ({
  page,
  admin,
  receiver,
}) => {
  // A path of its own, so a retried test finds its own row.
  const url = receiver.url(`/hook-${Date.now()}`);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Webhooks' });
  await expect(section).toBeVisible();

  // The form says what is wrong next to each field, before anything is sent.
  await section.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await dialog.getByLabel('Address (URL)').fill('ftp://example.com/hook');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByText('Enter a full http:// or https:// address')).toBeVisible();
  await expect(dialog.getByText('Choose at least one event')).toBeVisible();
  await expect(dialog.getByLabel('Address (URL)')).toHaveAttribute('aria-invalid', 'true');
  await saveScreen(page, 'webhooks/add-errors-desktop');
  await expectNoAxeViolations(page, 'the add dialog with errors');

  await dialog.getByLabel('Address (URL)').fill(url);
  await dialog.getByRole('checkbox', { name: 'All client events' }).check();
  await expect(dialog.getByRole('checkbox', { name: 'Client added' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();

  // The secret, this once.
  const added = page.getByRole('dialog', { name: 'Endpoint added' });
  await expect(added.getByText('You will not see it again.')).toBeVisible();
  const secret = await added.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(16);
  await saveScreen(page, 'webhooks/secret-once-desktop');
  await expectNoAxeViolations(page, 'the secret shown once');
  await added.getByRole('button', { name: 'Done' }).click();
  await expect(added).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  const table = section.getByRole('table', { name: 'Webhook endpoints' });
  const row = table.getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('6 events');
  await expect(row).toContainText('Enabled');
  await expect(row).toContainText('None yet');

  // An event the endpoint wants: a signed JSON POST reaches the receiver.
  await seedClient(admin, { name: 'Webhook Watched', code: 'WHW' });
  await receiver.waitFor(1);
  const [first] = receiver.received;
  const expected = `sha256=${createHmac('sha256', secret).update(first!.body).digest('hex')}`;
  expect(first!.headers[SIGNATURE_HEADER]).toBe(expected);
  expect(first!.headers[TIMESTAMP_HEADER]).toMatch(/^\d+$/);
  const payload = webhookPayloadSchema.parse(JSON.parse(first!.body.toString('utf8')));
  expect(payload.event.kind).toBe('client.created');

  // The row and the deliveries say it was delivered with 200.
  await expect(row).toContainText('Delivered', { timeout: 15_000 });
  await expect(row).toContainText('HTTP 200');
  await showSection(page);
  await saveScreen(page, 'webhooks/list-desktop');
  await expectNoAxeViolations(page, 'Settings as an administrator');
  await switchScheme(page, 'dark');
  await expectNoAxeViolations(page, 'Settings as an administrator, dark');
  await switchScheme(page, 'light');

  // A test delivery: the newest event the endpoint wants, once more.
  const beforeTest = receiver.received.length;
  await row.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Send a test' }).click();
  await receiver.waitFor(beforeTest + 1);
  await row.getByRole('button', { name: `Deliveries to ${url}` }).click();
  const drawer = page.getByRole('dialog', { name: 'Deliveries' });
  const deliveries = drawer.getByRole('table', { name: 'Deliveries' });
  // Newest first: the test's delivery, then the event's own.
  const delivered = deliveries.getByRole('row').filter({ hasText: 'client.created' }).last();
  await expect(delivered).toContainText('Delivered');
  await expect(delivered).toContainText('HTTP 200');

  // Send again: the receiver gets the same delivery once more.
  const before = receiver.received.length;
  await delivered.getByRole('button', { name: /^Send again/ }).click();
  // Its notification is held under the pointer: it closes by itself after 4 s, and a loaded
  // machine may take that long to deliver.
  await page.getByText('Queued to be sent again.').hover();
  await receiver.waitFor(before + 1);
  await expectUncovered(page, drawerTop(drawer), { inDialog: true });
  // Scanned first: the scan waits for the drawer's slide to end, so the picture is of it open.
  await expectNoAxeViolations(page, 'the deliveries');
  await saveScreen(page, 'webhooks/deliveries-desktop');
  await drawer.getByRole('button', { name: 'Close' }).click();

  // Delete, asked first: the row goes.
  await deleteEndpoint(page, row, url);
  await expect(section.getByText(url)).toHaveCount(0);
});

test('on a phone: endpoints as cards, one added with its own secret, edited, deleted', async ({
  page,
  admin,
  receiver,
}) => {
  // The empty list at the end is this test's to see, whichever tests of this worker's server
  // ran before it and left endpoints.
  const { body: left } = await admin.json<{ webhooks: { id: string }[] }>('GET', '/api/webhooks');
  for (const { id } of left.webhooks) await admin.request('DELETE', `/api/webhooks/${id}`);
  const url = receiver.url(`/hook-${Date.now()}`);
  // An endpoint with a delivery, made through the API (the test above makes one in the UI).
  const made = await admin.json('POST', '/api/webhooks', { url, events: ['client.created'] });
  expect(made.status).toBe(201);
  await seedClient(admin, { name: 'Webhook Watched on a Phone', code: 'WHP' });
  await receiver.waitFor(1);
  await page.setViewportSize({ width: 390, height: 844 });
  const section = page.getByRole('region', { name: 'Webhooks' });
  const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  const added = page.getByRole('dialog', { name: 'Endpoint added' });
  const drawer = page.getByRole('dialog', { name: 'Deliveries' });
  await page.goto('/settings');
  const cards = section.getByRole('list', { name: 'Webhook endpoints' });
  await expect(cards.getByText(url)).toBeVisible();
  await showSection(page);
  await saveScreen(page, 'webhooks/list-phone');
  await expectNoAxeViolations(page, 'Settings as an administrator on a phone');
  await section.getByRole('button', { name: 'Add endpoint' }).click();
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByText('Choose at least one event')).toBeVisible();
  await saveScreen(page, 'webhooks/add-errors-phone');
  // A second endpoint, added on the phone with a secret of one's own, which is shown once too.
  const phoneUrl = receiver.url(`/phone-${Date.now()}`);
  await dialog.getByLabel('Address (URL)').fill(phoneUrl);
  await dialog.getByRole('checkbox', { name: 'All people events' }).check();
  await dialog.getByRole('radio', { name: 'Slack-compatible' }).check();
  await dialog.getByLabel('Signing secret').fill('a secret chosen by hand');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(added.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(
    'a secret chosen by hand',
  );
  await saveScreen(page, 'webhooks/secret-once-phone');
  await added.getByRole('button', { name: 'Done' }).click();
  const phoneCard = cards.getByRole('listitem').filter({ hasText: phoneUrl });
  await expect(phoneCard).toContainText('Slack-compatible');
  await expect(phoneCard).toContainText(`${PERSON_EVENT_KINDS.length} events`);
  // Edit: switched off, it says so; the secret field starts empty and keeps the secret.
  await phoneCard.getByRole('button', { name: `Actions for ${phoneUrl}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit webhook endpoint' });
  await expect(edit.getByLabel('Address (URL)')).toHaveValue(phoneUrl);
  await expect(edit.getByLabel('Signing secret')).toHaveValue('');
  await edit.getByRole('switch', { name: 'Enabled' }).uncheck();
  await edit.getByRole('button', { name: 'Save' }).click();
  // The save's notification, held under the pointer (it closes by itself after 4 s), must
  // leave the drawer's top free: on a phone the drawer fills the screen, its title and Close
  // where notifications first appear.
  await page.getByText('Endpoint saved.').hover();
  await expect(edit).toHaveCount(0);
  await expect(phoneCard).toContainText('Disabled');
  await cards.getByRole('button', { name: `Deliveries to ${url}` }).press('Enter');
  await expect(
    drawer.getByRole('list', { name: 'Deliveries' }).getByText('client.created').first(),
  ).toBeVisible();
  await expectUncovered(page, drawerTop(drawer), { inDialog: true });
  await expectNoAxeViolations(page, 'the deliveries on a phone');
  await saveScreen(page, 'webhooks/deliveries-phone');
  await drawer.getByRole('button', { name: 'Close' }).click();

  // Delete, asked first; nothing more is sent.
  await deleteEndpoint(page, cards, url);
  await expect(section.getByText(url)).toHaveCount(0);
  await deleteEndpoint(page, phoneCard, phoneUrl);
  await expect(section.getByText('No endpoints yet.')).toBeVisible();
});

test('an editor sees no Webhooks section', async ({ page, server, staff }) => {
  await setAccess(server, staff, { role: 'editor' });
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Import and export' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toHaveCount(0);
  expect((await staff.request('GET', '/api/webhooks')).status).toBe(403);
});

test('an endpoint added after its dialog was closed says so, and the next Edit is an edit', async ({
  page,
  admin,
  receiver,
}) => {
  void admin;
  const url = receiver.url(`/late-${Date.now()}`);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Webhooks' });
  await section.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await dialog.getByLabel('Address (URL)').fill(url);
  await dialog.getByRole('checkbox', { name: 'All client events' }).check();
  const release = await holdBack(page, '**/api/webhooks');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  release();
  await expect(page.getByText(/^Endpoint added\. Its signing secret was not shown/)).toBeVisible();

  await section.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit webhook endpoint' });
  await expect(edit.getByLabel('Address (URL)')).toHaveValue(url);
  await expect(page.getByRole('dialog', { name: 'Endpoint added' })).toHaveCount(0);
});

test("an edit saves what it changed, not over a colleague's change made while it was open", async ({
  page,
  admin,
  receiver,
}) => {
  const url = receiver.url(`/kept-${Date.now()}`);
  const { body: created } = await admin.json<{ webhook: { id: string } }>('POST', '/api/webhooks', {
    url,
    events: ['client.created'],
  });
  const endpoint = created.webhook;
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Webhooks' });
  await section.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit webhook endpoint' });
  await expect(edit.getByRole('switch', { name: 'Enabled' })).toBeChecked();
  // Another administrator turns the endpoint off; this dialog still shows it on.
  await admin.json('PATCH', `/api/webhooks/${endpoint.id}`, { enabled: false });
  await edit.getByRole('checkbox', { name: 'All client events' }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await showSection(page);
  await saveScreen(page, 'webhooks/edit-kept-colleague-disable');
  const { body } = await admin.json<{
    webhooks: { id: string; enabled: boolean; events: string[] }[];
  }>('GET', '/api/webhooks');
  const saved = body.webhooks.find((webhook) => webhook.id === endpoint.id);
  expect(saved?.events).toContain('client.deleted');
  expect(saved?.enabled).toBe(false);
});
