import { test, expect, holdBack, seedClient } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { saveScreen } from './screens.ts';

test('a token made in Settings is shown once, works on the API, and stops when revoked', async ({
  page,
  staff,
  server,
  request,
}) => {
  // Two axe scans on a shared machine take longer than the default timeout.
  test.setTimeout(120_000);
  await seedClient(staff, { name: 'Token Client', code: 'TOK', tags: ['eu-west-1'] });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'API tokens' });
  await expect(section.getByText('You have no API tokens.')).toBeVisible();

  await section.getByLabel('Token name').fill('Deploy script');
  await section.getByRole('combobox', { name: 'Scope' }).click();
  await page.getByRole('option', { name: 'Read and secrets' }).click();
  await section.getByRole('combobox', { name: 'Expires' }).click();
  await page.getByRole('option', { name: '30 days' }).click();
  await section.getByRole('button', { name: 'Create token' }).click();

  const shown = section.getByLabel('New API token');
  await expect(shown).toBeVisible();
  const token = (await shown.textContent())!.trim();
  expect(token).toMatch(/^cm_[A-Za-z0-9_-]{43}$/);
  await expect(section.getByRole('button', { name: 'Copy token' })).toBeVisible();
  const row = section.getByRole('row', { name: /Deploy script/ });
  await expect(row).toContainText('Read and secrets');
  await expect(row).toContainText('Never');
  await saveScreen(page, 'api-tokens/settings-new-token-1366', { fullPage: true });
  expect(await axeViolations(page)).toEqual([]);

  // Once done, the token is gone from the page for good.
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(section.getByLabel('New API token')).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);

  // A script with the token alone (`request` has no cookies of the page's).
  const api = await request.get(`${server.url}/api/clients`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(api.status()).toBe(200);
  const body = (await api.json()) as { clients: { name: string }[] };
  expect(body.clients.map((c) => c.name)).toContain('Token Client');

  // Its last use shows once the list is asked again.
  await page.reload();
  await expect(row).not.toContainText('Never');
  await saveScreen(section, 'api-tokens/settings-tokens-1366');
  expect(await axeViolations(page)).toEqual([]);

  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await saveScreen(section, 'api-tokens/settings-tokens-390');

  await row.getByRole('button', { name: 'Revoke Deploy script' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke API token' });
  await expect(dialog).toContainText('Revoke Deploy script?');
  await saveScreen(page, 'api-tokens/settings-revoke-390');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Token revoked.')).toBeVisible();
  await expect(section.getByText('You have no API tokens.')).toBeVisible();

  const refused = await request.get(`${server.url}/api/clients`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({
    error: 'This API token is not valid: it was revoked, or never existed',
  });
});

test('on a phone the new token and its warning wrap inside their alert, and copy whole', async ({
  page,
  context,
  staff,
  server,
  request,
}) => {
  void staff;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'API tokens' });
  await section.getByLabel('Token name').fill('Phone script');
  await section.getByRole('button', { name: 'Create token' }).click();
  const shown = section.getByLabel('New API token');
  await expect(shown).toBeVisible();
  const alert = section.getByRole('alert', { name: 'Token “Phone script” created' });
  await expect(alert).toContainText('it cannot be recovered.');

  // Whatever sticks out of the alert, or scrolls inside it, is text a person cannot read.
  const clipped = await alert.evaluate((box) => {
    const outer = box.getBoundingClientRect();
    return [box, ...box.querySelectorAll('*')].flatMap((element) => {
      const { left, right } = element.getBoundingClientRect();
      const part = [...element.classList].find((name) => name.startsWith('mantine-'));
      const name = `${part ?? element.tagName.toLowerCase()} "${element.textContent?.slice(0, 20)}"`;
      return [
        ...(left < outer.left || right > outer.right
          ? [`${name}: ${left}–${right} outside ${outer.left}–${outer.right}`]
          : []),
        ...(element.scrollWidth > element.clientWidth
          ? [`${name}: ${element.scrollWidth} px wide in ${element.clientWidth}`]
          : []),
      ];
    });
  });
  expect(clipped, 'clipped in the new token alert').toEqual([]);

  const token = (await shown.textContent())!.trim();
  expect(token).toMatch(/^cm_[A-Za-z0-9_-]{43}$/);
  await alert.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByText('Token copied to clipboard.')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(token);
  const api = await request.get(`${server.url}/api/clients`, {
    headers: { authorization: `Bearer ${copied}` },
  });
  expect(api.status()).toBe(200);
});

test('a token made while leaving Settings says it was not shown, and is there to revoke', async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'API tokens' });
  await section.getByLabel('Token name').fill('Left behind');
  const release = await holdBack(page, '**/api/me/tokens');
  await section.getByRole('button', { name: 'Create token' }).click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Clients' })
    .click();
  await expect(page.getByRole('heading', { name: 'Clients' }).first()).toBeVisible();
  release();
  const notice = page.getByText(/^The API token “Left behind” was made while you left Settings/);
  await expect(notice).toBeVisible();
  await saveScreen(page, 'api-tokens/made-while-leaving');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(
    page.getByRole('table', { name: 'Your API tokens' }).getByRole('row', { name: /Left behind/ }),
  ).toBeVisible();
});
