import { test, expect, seedClient, signInContext } from './fixtures.ts';
import { setAccess } from '../src/server/testing/access.ts';
import { Session, signUpVerified, uniqueEmail } from '../src/server/testing/test-server.ts';
import { saveScreen } from './screens.ts';

test.describe('a viewer', () => {
  test('sees no Reveal, Edit, Delete or + and is refused if they force it', async ({
    page,
    staff,
    server,
  }) => {
    // A colleague's client with a password and a token of the viewer's own.
    const client = await seedClient(staff, {
      name: 'Viewed Client',
      code: 'VW1',
      tags: ['prod'],
      server: { host: 'viewed.example', username: 'deploy', password: 'viewer-must-not-see' },
    });
    await setAccess(server, staff, { role: 'viewer' });
    await staff.json('PUT', '/api/me/access-token', { accessToken: 'viewer-token-1234' });

    await page.goto(`/clients/${client.id}`);
    const panel = page.getByRole('region', { name: 'Selected Client' });
    await expect(panel.getByRole('heading', { name: /Viewed Client/ })).toBeVisible();
    // The SSH command stays; the deployment command (it carries the token) is not offered.
    await expect(panel.getByRole('button', { name: /^Copy SSH command/ })).toBeVisible();
    await expect(panel.getByRole('button', { name: /^Copy Deploy command/ })).toHaveCount(0);
    await expect(panel.getByText('"password": "••••••••"')).toBeVisible();
    for (const name of ['Reveal password', 'Copy password', 'Client actions', 'Add server']) {
      await expect(page.getByRole('button', { name }), name).toHaveCount(0);
    }
    await expect(page.getByRole('button', { name: 'Add client' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: /Edit|Delete|Duplicate/ })).toHaveCount(0);

    // Selecting rows offers Export only.
    await page.getByRole('checkbox', { name: /Select Viewed Client/ }).check();
    const bar = page.getByRole('toolbar', { name: 'Selected clients' });
    await expect(bar.getByRole('button', { name: 'Export' })).toBeVisible();
    for (const name of ['Add tag', 'Remove tag', 'Delete']) {
      await expect(bar.getByRole('button', { name }), name).toHaveCount(0);
    }

    for (const [width, height] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`/clients/${client.id}`);
      await expect(page.getByRole('button', { name: /^Copy SSH command/ })).toBeVisible();
      await saveScreen(page, `roles/viewer-dashboard-${width}x${height}`);
    }

    // Forced through the API from this very browser, every write and secret is a 403.
    const api = page.request;
    const forced = [
      api.get(`/api/clients/${client.id}/password`),
      api.post('/api/clients', { data: { name: 'Forced' } }),
      api.put(`/api/clients/${client.id}`, { data: { name: 'Forced', version: client.version } }),
      api.delete(`/api/clients/${client.id}`),
      api.get('/api/clients/export?secrets=1'),
    ];
    for (const response of await Promise.all(forced)) {
      expect(response.status(), response.url()).toBe(403);
    }
    // Nothing changed.
    expect((await staff.json<{ name: string }>('GET', `/api/clients/${client.id}`)).body.name).toBe(
      'Viewed Client',
    );
  });

  test('sees the vault and servers without their write buttons or secrets', async ({
    page,
    staff,
    server,
  }) => {
    const credential = (
      await staff.json<{ id: string }>('POST', '/api/credentials', {
        name: 'Viewer vault token',
        kind: 'token',
        secret: 'vault-secret-for-editors',
      })
    ).body;
    const client = await seedClient(staff, { name: 'Served', server: { host: 's.example' } });
    const servers = await staff.json<{ servers: { id: string }[] }>(
      'GET',
      `/api/servers?clientId=${client.id}`,
    );
    await setAccess(server, staff, { role: 'viewer' });

    await page.goto('/credentials');
    await expect(page.getByRole('heading', { name: 'Credentials', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New credential' })).toHaveCount(0);
    await page.goto(`/credentials/${credential.id}`);
    await expect(page.getByRole('heading', { name: 'Viewer vault token' })).toBeVisible();
    for (const name of ['Rename', 'Rotate', 'Delete', 'Reveal secret', 'Copy secret']) {
      await expect(page.getByRole('button', { name }), name).toHaveCount(0);
    }

    await page.goto('/servers');
    await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add server' })).toHaveCount(0);
    await page.goto(`/servers/${servers.body.servers[0]!.id}`);
    await expect(page.getByRole('button', { name: /^Copy SSH command/ })).toBeVisible();
    for (const name of ['Check now', 'Edit', 'Make primary', 'Remove']) {
      await expect(page.getByRole('button', { name }), name).toHaveCount(0);
    }

    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Export', level: 2 })).toBeVisible();
    await expect(page.getByLabel('Include passwords')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Import from a file' })).toHaveCount(0);
    await expect(page.getByText('Viewer', { exact: true })).toBeVisible();
  });
});

test('an editor keeps every button', async ({ page, staff, server }) => {
  const client = await seedClient(staff, {
    name: 'Edited Client',
    server: { host: 'e.example', password: 'editor-may-see' },
  });
  await setAccess(server, staff, { role: 'editor' });
  await page.goto(`/clients/${client.id}`);
  await expect(page.getByRole('button', { name: 'Add client' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reveal password' })).toBeVisible();
  await page.getByRole('button', { name: 'Client actions' }).click();
  for (const name of ['Edit', 'Duplicate', 'Delete']) {
    await expect(page.getByRole('menuitem', { name }), name).toBeVisible();
  }
});

test.describe('settings for one’s own account', () => {
  test('change the display name and the password; other devices are signed out', async ({
    page,
    server,
    context,
  }) => {
    const email = uniqueEmail('settings');
    const staff = await signUpVerified(server, {
      name: 'Before',
      email,
      password: 'old password 1',
    });
    await signInContext(context, staff);
    // The same person on another device.
    const elsewhere = new Session(server);
    await elsewhere.json('POST', '/api/auth/sign-in/email', { email, password: 'old password 1' });
    expect((await elsewhere.json('GET', '/api/me')).status).toBe(200);

    await page.goto('/settings');
    const profile = page.getByRole('region', { name: 'Profile' });
    await expect(profile.getByText(/^(Editor|Administrator)$/)).toBeVisible();
    await expect(profile.getByText('Every client.')).toBeVisible();
    const name = profile.getByLabel('Display name');
    await name.fill('x'.repeat(201));
    await profile.getByRole('button', { name: 'Save name' }).click();
    await expect(profile.getByText('Must be at most 200 characters')).toBeVisible();
    await name.fill('After 🚀');
    await profile.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText('Display name saved.')).toBeVisible();
    await expect(page.getByText('After 🚀', { exact: true })).toBeVisible();
    // The avatar's letters keep the emoji whole (Mantine's own cut drew half of it as �).
    await expect(page.getByRole('img', { name: 'After 🚀' })).toHaveText('A🚀');

    const password = page.getByRole('region', { name: 'Password' });
    await password.getByLabel('Current password').fill('wrong password');
    await password.getByLabel('New password').fill('new password 2');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByText('That is not your current password')).toBeVisible();
    expect((await elsewhere.json('GET', '/api/me')).status).toBe(200);

    await password.getByLabel('Current password').fill('old password 1');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(
      page.getByText('Password changed. Your other devices are signed out.'),
    ).toBeVisible();
    expect((await elsewhere.json('GET', '/api/me')).status).toBe(401);
    // This browser goes on.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

    for (const [width, height] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await profile.scrollIntoViewIfNeeded();
      await saveScreen(page, `roles/settings-${width}x${height}`, { fullPage: true });
    }
  });
});
