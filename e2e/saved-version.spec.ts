import type { Locator, Page } from '@playwright/test';
import { test, expect, seedClient } from './fixtures.ts';
import type { Session } from '../src/server/testing/test-server.ts';

/*
 * Every edit form saves at the version it was opened. When a colleague saved first, the save is
 * refused, and the form offers their version (the client form's is in client-form.spec.ts):
 * loaded, edited and saved over, without closing the dialog and opening it again. The page gets
 * no live updates here, so what is loaded can only come from reading the record again.
 */

interface Versioned {
  id: string;
  version: number;
}

async function colleagueSaves(staff: Session, method: 'PUT' | 'POST', url: string, body: object) {
  const answer = await staff.json(method, url, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/**
 * In the open `dialog`: types over `field` while `colleague` saves theirs, saves (refused), loads
 * the saved version (`loaded` in the field then), then `before` if given, and saves `mine` over
 * it: the dialog closes with the `saved` notification.
 */
async function refusedThenSavedOver(
  page: Page,
  dialog: Locator,
  steps: {
    record: string;
    field: string;
    save: string;
    saved: string;
    loaded: string;
    /** Where typing goes on once loaded; the field unless given. */
    focused?: Locator;
    mine: string;
    colleague: () => Promise<void>;
    before?: () => Promise<void>;
  },
) {
  const field = dialog.getByLabel(steps.field, { exact: true });
  await field.fill('typed before their save');
  await steps.colleague();
  await dialog.getByRole('button', { name: steps.save, exact: true }).click();
  const alert = dialog.getByRole('alert').filter({ hasText: `was not ${steps.record}` });
  await expect(alert).toContainText('after you opened it');
  await expect(field).toHaveValue('typed before their save');

  await alert.getByRole('button', { name: 'Load the saved version' }).click();
  await expect(alert).toHaveCount(0);
  await expect(field).toHaveValue(steps.loaded);
  await expect(steps.focused ?? field).toBeFocused();
  await steps.before?.();
  await field.fill(steps.mine);
  await dialog.getByRole('button', { name: steps.save, exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(steps.saved, { exact: true })).toBeVisible();
}

test('a save refused because a colleague saved first offers their version on every form', async ({
  page,
  staff,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.route('**/api/events', (route) => route.abort());
  const client = await seedClient(staff, { name: 'Contested records', code: 'CRV' });
  const server = (
    await staff.json<Versioned & { label: string }>('POST', '/api/servers', {
      clientId: client.id,
      label: 'staging',
      host: 'staging.crv.example',
      username: 'deploy',
    })
  ).body;
  const app = (
    await staff.json<Versioned>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'web',
    })
  ).body;
  await staff.json('POST', '/api/apps', { clientId: client.id, serverId: server.id, name: 'api' });
  const issue = (
    await staff.json<Versioned>('POST', '/api/issues', { clientId: client.id, title: 'Disk' })
  ).body;
  const token = (
    await staff.json<Versioned>('POST', '/api/credentials', {
      name: 'Registry token',
      kind: 'token',
      secret: 'first-token',
    })
  ).body;

  await page.goto(`/servers/${server.id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await refusedThenSavedOver(page, page.getByRole('dialog', { name: 'Edit server' }), {
    record: 'saved',
    field: 'Label',
    save: 'Save',
    saved: 'Server saved.',
    loaded: 'staging-theirs',
    mine: 'staging-mine',
    colleague: () =>
      colleagueSaves(staff, 'PUT', `/api/servers/${server.id}`, {
        label: 'staging-theirs',
        version: server.version,
      }),
  });
  await expect(page.getByRole('heading', { name: 'staging-mine', level: 1 })).toBeVisible();

  await page.goto(`/apps/${app.id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await refusedThenSavedOver(page, page.getByRole('dialog', { name: 'Edit app' }), {
    record: 'saved',
    field: 'Name',
    save: 'Save',
    saved: 'App saved.',
    loaded: 'web-theirs',
    mine: 'web-mine',
    // Another refusal (409 too) is said at its field, with no saved version to load.
    before: async () => {
      const dialog = page.getByRole('dialog', { name: 'Edit app' });
      await dialog.getByLabel('Name', { exact: true }).fill('api');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog.getByText('This client has an app with that name already')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Load the saved version' })).toHaveCount(0);
    },
    colleague: () =>
      colleagueSaves(staff, 'PUT', `/api/apps/${app.id}`, {
        name: 'web-theirs',
        serverId: server.id,
        version: app.version,
      }),
  });
  await expect(page.getByRole('heading', { name: 'web-mine', level: 1 })).toBeVisible();

  await page.goto(`/issues/${issue.id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await refusedThenSavedOver(page, page.getByRole('dialog', { name: 'Edit issue' }), {
    record: 'saved',
    field: 'Title',
    save: 'Save',
    saved: 'Issue saved.',
    loaded: 'Disk theirs',
    mine: 'Disk mine',
    colleague: () =>
      colleagueSaves(staff, 'PUT', `/api/issues/${issue.id}`, {
        serverId: null,
        appId: null,
        kind: 'note',
        title: 'Disk theirs',
        text: '',
        assigneeId: null,
        version: issue.version,
      }),
  });
  await expect(page.getByRole('heading', { name: 'Disk mine', level: 1 })).toBeVisible();

  await page.goto(`/credentials/${token.id}`);
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await refusedThenSavedOver(page, page.getByRole('dialog', { name: 'Rename credential' }), {
    record: 'renamed',
    field: 'Name',
    save: 'Save',
    saved: 'Credential renamed.',
    loaded: 'Registry theirs',
    mine: 'Registry mine',
    colleague: () =>
      colleagueSaves(staff, 'PUT', `/api/credentials/${token.id}`, {
        name: 'Registry theirs',
        version: token.version,
      }),
  });
  await expect(page.getByRole('heading', { name: 'Registry mine', level: 1 })).toBeVisible();

  // A stored secret is never shown to compare: loading keeps the one typed, ready to save.
  const opened = (await staff.json<Versioned>('GET', `/api/credentials/${token.id}`)).body;
  await page.getByRole('button', { name: 'Rotate', exact: true }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the secret' });
  await refusedThenSavedOver(page, rotate, {
    record: 'replaced',
    field: 'Secret',
    save: 'Rotate',
    saved: 'Secret replaced.',
    loaded: 'typed before their save',
    focused: rotate.getByRole('button', { name: 'Rotate', exact: true }),
    mine: 'third-token',
    colleague: () =>
      colleagueSaves(staff, 'POST', `/api/credentials/${token.id}/rotate`, {
        secret: 'second-token',
        version: opened.version,
      }),
  });
  const rotated = await staff.json<Versioned>('GET', `/api/credentials/${token.id}`);
  expect(rotated.body.version).toBe(opened.version + 2);
  const secret = await staff.json<{ secret: string }>(
    'POST',
    `/api/credentials/${token.id}/reveal`,
    {},
  );
  expect(secret.body.secret).toBe('third-token');
});
