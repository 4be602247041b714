import type { Page } from '@playwright/test';
import type { Credential } from '../src/shared/credentials.ts';
import type { Server } from '../src/shared/servers.ts';
import { startSshd } from '../src/server/testing/sshd.ts';
import type { Session } from '../src/server/testing/test-server.ts';
import { test, expect, seedClient } from './fixtures.ts';

const panel = (page: Page) => page.getByRole('region', { name: 'Selected Client' });

test('add a server from the Servers section, then find it by search and status', async ({
  page,
  staff,
}) => {
  await seedClient(staff, {
    name: 'Srv Co',
    code: 'SRV',
    server: { host: 'prod.srv.example', username: 'deploy' },
  });
  const key = await staff.json<Credential>('POST', '/api/credentials', {
    name: 'Srv deploy key',
    kind: 'ssh-key',
    generate: 'ed25519',
  });
  expect(key.status).toBe(201);

  await page.goto('/servers');
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await dialog.getByLabel('Client', { exact: true }).fill('Srv Co');
  await page.getByRole('option', { name: 'Srv Co (SRV)' }).click();
  await dialog.getByLabel('Label', { exact: true }).fill('staging');
  await dialog.getByLabel('Host', { exact: true }).fill('staging.srv.example');
  // Emptied, Port says what it will be.
  await dialog.getByLabel('Port', { exact: true }).fill('');
  await expect(dialog.getByLabel('Port', { exact: true })).toHaveAttribute('placeholder', '22');
  await dialog.getByLabel('Port', { exact: true }).fill('2200');
  await dialog.getByLabel('Username', { exact: true }).fill('ops');
  await dialog.getByLabel('Credential', { exact: true }).click();
  await page.getByRole('option', { name: 'Srv deploy key (SSH key)' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Server saved.')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // In the list, with its client, address, credential and status.
  await page.getByLabel('Search servers').fill('staging.srv.example');
  const table = page.getByRole('table', { name: 'Servers' });
  // Other tests of this worker leave servers labelled staging: wait for the search to apply.
  await expect(table.getByRole('row')).toHaveCount(2);
  const row = table.getByRole('row', { name: /^staging Srv Co/ });
  await expect(row).toContainText('Srv Co (SRV)');
  await expect(row).toContainText('ops@staging.srv.example:2200');
  await expect(row).toContainText('Srv deploy key');
  await expect(row).toContainText('Not checked');
  // The status filter, and both kept in the address.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Reachable', exact: true }).click();
  await expect(page.getByText('No server matches.')).toBeVisible();
  await expect(page).toHaveURL(/[?&]status=reachable/);
  await expect(page).toHaveURL(/[?&]q=staging\.srv/);
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Not checked', exact: true }).click();
  await expect(row).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Search servers')).toHaveValue('staging.srv.example');
  await expect(table.getByRole('row')).toHaveCount(2);
});

test('a second server in the panel: commands for either, its own page, then removed', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, {
    name: 'Two Srv Co',
    code: 'SRV2',
    server: { host: 'prod.srv2.example', username: 'deploy' },
  });
  const key = await staff.json<Credential>('POST', '/api/credentials', {
    name: 'Srv2 deploy key',
    kind: 'ssh-key',
    generate: 'ed25519',
  });
  expect(key.status).toBe(201);
  const staging = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'staging',
    host: 'staging.srv2.example',
    port: 2200,
    username: 'ops',
    credentialId: key.body.id,
  });
  expect(staging.status).toBe(201);
  const app = await staff.json('POST', '/api/apps', {
    clientId: client.id,
    serverId: staging.body.id,
    name: 'storefront',
  });
  expect(app.status).toBe(201);

  // The primary stays the Server JSON, the other is listed below it, and the commands can be
  // for either.
  await page.goto(`/clients/${client.id}`);
  const p = panel(page);
  await expect(p.locator('pre').first()).toContainText('"host": "prod.srv2.example"');
  await expect(p.getByRole('link', { name: 'staging' })).toBeVisible();
  await expect(p.getByText('ops@staging.srv2.example:2200')).toBeVisible();
  const ssh = p.getByRole('button', { name: /^Copy SSH command/ });
  await expect(ssh).toContainText('deploy@prod.srv2.example');
  await p.getByLabel('Commands for server').click();
  await page.getByRole('option', { name: /^staging/ }).click();
  await expect(ssh).toContainText('ops@staging.srv2.example');

  // Its own page, then removed.
  await p.getByRole('link', { name: 'staging' }).click();
  await expect(page.getByRole('heading', { name: 'staging', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Srv2 deploy key' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Copy SSH command/ })).toContainText(
    'ssh -p 2200 ops@staging.srv2.example',
  );
  await page.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove server' });
  // The app on it would be left without a server: the confirmation says so before, not after.
  await expect(confirm).toContainText(
    'The app storefront runs on it: it keeps its runs, and cannot deploy until it is given another server.',
  );
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Server removed.')).toBeVisible();
  await expect(page).toHaveURL(/\/servers$/);
  await page.getByLabel('Search servers').fill('staging.srv2');
  await expect(page.getByText('No server matches.')).toBeVisible();
});

test('a stale edit of a server says someone else changed it', async ({ page, staff }) => {
  const client = await seedClient(staff, { name: 'Stale Co', code: 'STL' });
  const created = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'edge',
    host: 'edge.stale.example',
  });
  expect(created.status).toBe(201);
  await page.goto(`/servers/${created.body.id}`);
  await expect(page.getByRole('heading', { name: 'edge', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit server' });
  await expect(dialog.getByLabel('Host', { exact: true })).toHaveValue('edge.stale.example');
  // A colleague saves first.
  const other = await staff.json('PUT', `/api/servers/${created.body.id}`, {
    label: 'edge',
    host: 'edge2.stale.example',
    version: created.body.version,
  });
  expect(other.status).toBe(200);
  await dialog.getByLabel('Username', { exact: true }).fill('me');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The server was not saved');
});

/** A server of a new client, signing in with a new vault key that the sshd lets in. */
async function serverOnSshd(staff: Session, code: string) {
  const key = await staff.json<Credential>('POST', '/api/credentials', {
    name: `sshd key ${code}`,
    kind: 'ssh-key',
    generate: 'ed25519',
  });
  expect(key.status).toBe(201);
  const sshd = await startSshd([key.body.publicKey ?? '']);
  const client = await seedClient(staff, { name: 'Real SSH', code });
  const server = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'local',
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    credentialId: key.body.id,
  });
  expect(server.status).toBe(201);
  return { sshd, server: server.body };
}

test('in the browser: generate a key, attach it, check a real sshd, see its key change', async ({
  page,
  staff,
}) => {
  test.setTimeout(120_000);
  const client = await seedClient(staff, { name: 'Real SSH', code: 'RSSH1' });

  // The key is made in the vault from the page; the sshd lets its public half in.
  await page.goto('/credentials');
  await page.getByRole('button', { name: 'New credential' }).click();
  const create = page.getByRole('dialog', { name: 'New credential' });
  await create.getByLabel('Name', { exact: true }).fill('sshd key RSSH1');
  await expect(create.getByLabel('Generate a new key')).toBeChecked();
  await create.getByRole('button', { name: 'Save' }).click();
  const publicKey = page.getByText(/^ssh-ed25519 AAAA/);
  await expect(publicKey).toBeVisible();
  const sshd = await startSshd([(await publicKey.textContent()) ?? '']);
  try {
    // Attached to a new server of the client, from the client's panel.
    await page.goto(`/clients/${client.id}`);
    await panel(page).getByRole('button', { name: 'Add server' }).click();
    const add = page.getByRole('dialog', { name: 'Add server' });
    await add.getByLabel('Label', { exact: true }).fill('local');
    await add.getByLabel('Host', { exact: true }).fill(sshd.host);
    await add.getByLabel('Port', { exact: true }).fill(String(sshd.port));
    await add.getByLabel('Username', { exact: true }).fill(sshd.username);
    await add.getByLabel('Credential', { exact: true }).click();
    await page.getByRole('option', { name: 'sshd key RSSH1 (SSH key)' }).click();
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Server saved.')).toBeVisible();
    await panel(page).getByRole('link', { name: 'local', exact: true }).click();

    await expect(page.getByRole('heading', { name: 'local', level: 1 })).toBeVisible();
    await expect(page.getByText('Not checked', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Check now' }).click();
    await expect(page.getByText('Reachable', { exact: true }).first()).toBeVisible({
      timeout: 60_000,
    });
    const first = await sshd.hostKey();
    await expect(page.getByText(`${first.algorithm} ${first.fingerprint}`)).toBeVisible();

    await sshd.changeHostKey();
    await page.getByRole('button', { name: 'Check now' }).click();
    const alert = page.getByRole('alert', { name: 'Host key changed' });
    await expect(alert).toBeVisible({ timeout: 60_000 });
    await expect(alert).toContainText(`Pinned: ${first.algorithm} ${first.fingerprint}`);
  } finally {
    await sshd.close();
  }
});

test('a changed host key is shown as offered and accepted after a confirmation', async ({
  page,
  staff,
}) => {
  test.setTimeout(120_000);
  const { sshd, server } = await serverOnSshd(staff, 'RSSH2');
  try {
    expect((await staff.json('POST', `/api/servers/${server.id}/check`)).status).toBe(200);
    await sshd.changeHostKey();
    const second = await sshd.hostKey();
    await page.goto(`/servers/${server.id}`);
    await page.getByRole('button', { name: 'Check now' }).click();
    const alert = page.getByRole('alert', { name: 'Host key changed' });
    await expect(alert).toContainText(`Offered: ${second.algorithm} ${second.fingerprint}`, {
      timeout: 60_000,
    });
    await alert.getByRole('button', { name: 'Accept new key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Accept the new host key?' });
    await expect(confirm).toContainText(second.fingerprint);
    await confirm.getByRole('button', { name: 'Accept new key' }).click();
    await expect(page.getByText('New host key accepted.')).toBeVisible();
    await expect(alert).toHaveCount(0);
    // Until the dialog has faded out, its copy of the fingerprint is on the page too.
    await expect(confirm).toHaveCount(0);
    await expect(page.getByText(`${second.algorithm} ${second.fingerprint}`)).toBeVisible();
  } finally {
    await sshd.close();
  }
});

test('a server added to a client deleted meanwhile is refused at the Client field', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Gone Co', code: 'GONE' });
  // No live feed, so the panel stays open after the delete, as on a dropped connection.
  await page.route('**/api/events**', (route) => route.abort());
  await page.goto(`/clients/${client.id}`);
  await panel(page).getByRole('button', { name: 'Add server' }).click();
  const add = page.getByRole('dialog', { name: 'Add server' });
  await add.getByLabel('Label').fill('production');
  await add.getByLabel('Host', { exact: true }).fill('gone.example');
  expect((await staff.json('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
  await add.getByRole('button', { name: 'Save' }).click();
  const field = add.getByRole('textbox', { name: 'Client' });
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(
    'No client with that id: it may have been deleted',
  );
});
