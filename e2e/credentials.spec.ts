import type { Credential } from '../src/shared/credentials.ts';
import type { Server } from '../src/shared/servers.ts';
import { test, expect, seedClient } from './fixtures.ts';

test('a generated SSH key shows its public key, copied in one click, and reveals its secret', async ({
  page,
  staff,
  context,
}) => {
  void staff;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/credentials');
  await expect(page.getByRole('heading', { name: 'Credentials', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New credential' }).click();
  const dialog = page.getByRole('dialog', { name: 'New credential' });
  await dialog.getByLabel('Name', { exact: true }).fill('Deploy key e2e');
  await expect(dialog.getByLabel('Generate a new key')).toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByRole('heading', { name: 'Deploy key e2e', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/credentials\/[A-Za-z0-9_-]+$/);
  const publicKey = page.getByText(/^ssh-ed25519 AAAA/);
  await expect(publicKey).toBeVisible();
  await expect(page.getByText(/^SHA256:[A-Za-z0-9+/]{43}$/)).toBeVisible();
  await page.getByRole('button', { name: 'Copy public key' }).click();
  await expect(page.getByText('Public key copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    await publicKey.textContent(),
  );

  // The private key only on an explicit click, and it says who revealed it.
  await expect(page.getByText(/BEGIN OPENSSH PRIVATE KEY/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(page.getByText(/BEGIN OPENSSH PRIVATE KEY/)).toBeVisible();
  await expect(page.getByText(/Last revealed: .* by grace/)).toBeVisible();
  await page.getByRole('button', { name: 'Hide secret' }).click();
  await expect(page.getByText(/BEGIN OPENSSH PRIVATE KEY/)).toHaveCount(0);

  await page.getByRole('link', { name: 'All credentials' }).click();
  const table = page.getByRole('table', { name: 'Credentials' });
  const row = table.getByRole('row', { name: /Deploy key e2e/ });
  await expect(row).toContainText('SSH key');
  await expect(row).toContainText('No server');
});

test('a password credential: pasted secret, rename, and a wrong pasted key named on its field', async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/credentials');
  await page.getByRole('button', { name: 'New credential' }).click();
  let dialog = page.getByRole('dialog', { name: 'New credential' });
  await dialog.getByLabel('Name', { exact: true }).fill('Bad key');
  await dialog.getByLabel('Paste a private key').check();
  await dialog.getByLabel('Private key', { exact: true }).fill('not a key at all');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Private key', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'New credential' }).click();
  dialog = page.getByRole('dialog', { name: 'New credential' });
  await dialog.getByLabel('Name', { exact: true }).fill('Shop password');
  await dialog.getByText('Password', { exact: true }).click();
  await expect(dialog.getByRole('radio', { name: 'Password' })).toBeChecked();
  await dialog.getByLabel('Secret', { exact: true }).fill('abc');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Secret', { exact: true })).toHaveAccessibleDescription(
    /^Must be at least 4 characters, so that run logs can hide it/,
  );
  await dialog.getByLabel('Secret', { exact: true }).fill('s3cret-value');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Shop password', level: 1 })).toBeVisible();
  await expect(page.getByText('s3cret-value')).toHaveCount(0);

  await page.getByRole('button', { name: 'Rename' }).click();
  dialog = page.getByRole('dialog', { name: 'Rename credential' });
  await dialog.getByLabel('Name', { exact: true }).fill('Shop password (old)');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Shop password (old)', level: 1 })).toBeVisible();
});

test('deleting a credential that a server uses is refused, naming the server', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Vault Co', code: 'VLT' });
  const created = await staff.json<Credential>('POST', '/api/credentials', {
    name: 'Used key',
    kind: 'ssh-key',
    generate: 'ed25519',
  });
  expect(created.status).toBe(201);
  const server = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'staging',
    host: 'staging.vault.example',
    username: 'deploy',
    credentialId: created.body.id,
  });
  expect(server.status).toBe(201);

  await page.goto(`/credentials/${created.body.id}`);
  await expect(page.getByRole('link', { name: 'staging of Vault Co (VLT)' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete credential' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The credential was not deleted' });
  await expect(refusal).toContainText('staging');
  await expect(page.getByRole('heading', { name: 'Used key', level: 1 })).toBeVisible();
});
