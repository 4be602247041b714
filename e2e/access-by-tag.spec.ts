import { test, expect, seedClient } from './fixtures.ts';
import { signUpVerified } from '../src/server/testing/test-server.ts';
import { setAccess } from '../src/server/testing/access.ts';
import { saveScreen } from './screens.ts';

test('a person limited by tag sees only their clients, live changes included', async ({
  page,
  staff,
  server,
}) => {
  // `staff` (signed in in the page) sees clients tagged 'eu' only; an editor adds elsewhere.
  await setAccess(server, staff, { tags: ['eu'] });
  const editor = await signUpVerified(server, { name: 'Editor' });
  await seedClient(editor, { name: 'Tagscope Berlin', code: 'BER', tags: ['eu', 'shop'] });
  await seedClient(editor, { name: 'Tagscope Paris', code: 'PAR', tags: ['eu'] });
  await seedClient(editor, { name: 'Tagscope Both', code: 'BTH', tags: ['us', 'eu'] });
  await seedClient(editor, { name: 'Tagscope Boston', code: 'BOS', tags: ['us'] });

  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/?q=Tagscope');
  const link = (name: string) => page.getByRole('link', { name: new RegExp(name) });
  await expect(link('Tagscope Berlin')).toBeVisible();
  await expect(link('Tagscope Paris')).toBeVisible();
  await expect(link('Tagscope Both')).toBeVisible();
  await expect(link('Tagscope Boston')).toHaveCount(0);

  // Outside their tags first, then inside: once the second has arrived live, the first (sent
  // before it, if at all) would be there too.
  await seedClient(editor, { name: 'Tagscope Chicago', code: 'CHI', tags: ['us'] });
  await seedClient(editor, { name: 'Tagscope Madrid', code: 'MAD', tags: ['eu'] });
  await expect(link('Tagscope Madrid')).toBeVisible();
  await expect(link('Tagscope Chicago')).toHaveCount(0);
  await expect(link('Tagscope Boston')).toHaveCount(0);
  await saveScreen(page, 'access-by-tag/dashboard-1366');

  // The form says which tags a client must keep, and the server's refusal shows at the field.
  await page.getByRole('button', { name: 'Add client' }).click();
  await expect(page.getByRole('heading', { name: 'Add Client' })).toBeVisible();
  await expect(page.getByText('Must include one of: eu')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Tagscope Denver');
  await page.getByRole('combobox', { name: 'Tags' }).pressSequentially('us,');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Must include one of your tags: eu')).toBeVisible();
  await saveScreen(page, 'access-by-tag/form-refused-1366');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?q=Tagscope');
  await expect(link('Tagscope Madrid')).toBeVisible();
  await expect(link('Tagscope Chicago')).toHaveCount(0);
  await saveScreen(page, 'access-by-tag/dashboard-390');
});
