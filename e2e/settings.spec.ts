import { test, expect } from './fixtures.ts';
import { saveScreen } from './screens.ts';

test('settings list the signed-in devices and sign out all the others', async ({
  page,
  staff,
  browser,
  server,
}) => {
  // The same person on a second device.
  const email = (await staff.json<{ email: string }>('GET', '/api/me')).body.email;
  const phoneContext = await browser.newContext({
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1',
  });
  const phone = await phoneContext.newPage();
  await phone.goto(`${server.url}/sign-in`);
  await phone.getByLabel('Email').fill(email);
  await phone.getByLabel('Password').fill('correct horse battery');
  await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(phone).toHaveURL(`${server.url}/`);

  await page.goto('/settings');
  const devices = page.getByRole('region', { name: 'Signed-in devices' });
  await expect(devices.getByRole('row')).toHaveCount(3);
  await expect(devices.getByText('This device')).toHaveCount(1);
  await expect(devices.getByText('Safari on iOS')).toBeVisible();
  await saveScreen(page, 'settings/settings-sessions', { fullPage: true });

  await devices.getByRole('button', { name: 'Sign out all other devices' }).click();
  await expect(page.getByText('Signed out of all other devices.')).toBeVisible();
  await expect(devices.getByRole('row')).toHaveCount(2);

  // The phone is signed out: its next step lands on the sign-in screen.
  await phone.reload();
  await expect(phone).toHaveURL(/\/sign-in$/);
  await phoneContext.close();
});
