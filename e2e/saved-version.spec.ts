import type { Locator, Page } from '@playwright/test';
import { test, expect, seedClient } from './fixtures.ts';
import type { Session } from '../src/server/testing/test-server.ts';

/*
 * Every edit form saves at the version it was opened. When a colleague saved first, the save is
 * refused, and the form offers their version (the client form's is in client-form.spec.ts):
 * loaded, edited and saved over, without closing the dialog and opening it again.
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
 * In the open dialog `name`: types `mine` over `field` while `colleague` saves theirs, saves
 * (refused), loads the saved version (`theirs` in the field, or empty for a secret) and saves
 * `mine` over it: the dialog closes.
 */
async function refusedThenSavedOver(
  page: Page,
  dialog: Locator,
  steps: {
    record: string;
    field: string;
    save: string;
    theirs: string;
    mine: string;
    colleague: () => Promise<void>;
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
  await expect(field).toHaveValue(steps.theirs);
  await expect(field).toBeFocused();
  await field.fill(steps.mine);
  await dialog.getByRole('button', { name: steps.save, exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
}

test('a save refused because a colleague saved first offers their version on every form', async ({
  page,
  staff,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
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
    theirs: 'staging-theirs',
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
    theirs: 'web-theirs',
    mine: 'web-mine',
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
    theirs: 'Disk theirs',
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
    theirs: 'Registry theirs',
    mine: 'Registry mine',
    colleague: () =>
      colleagueSaves(staff, 'PUT', `/api/credentials/${token.id}`, {
        name: 'Registry theirs',
        version: token.version,
      }),
  });
  await expect(page.getByRole('heading', { name: 'Registry mine', level: 1 })).toBeVisible();

  // A rotation's new secret is not shown once stored: loading empties what was typed.
  const opened = (await staff.json<Versioned>('GET', `/api/credentials/${token.id}`)).body;
  await page.getByRole('button', { name: 'Rotate', exact: true }).click();
  await refusedThenSavedOver(page, page.getByRole('dialog', { name: 'Rotate the secret' }), {
    record: 'replaced',
    field: 'Secret',
    save: 'Rotate',
    theirs: '',
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
