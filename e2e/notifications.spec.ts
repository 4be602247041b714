import type { Server } from '../src/shared/servers.ts';
import { startSshd } from '../src/server/testing/sshd.ts';
import { axeViolations, switchScheme } from './axe.ts';
import { expectUncovered } from './uncovered.ts';
import { test, expect, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('a save right after a save: no notification covers Save, Cancel or the commands', async ({
      page,
      staff,
    }) => {
      const client = await seedClient(staff, { name: 'Notice', code: 'NTC', tags: ['eu'] });
      await page.goto(`/clients/${client.id}`);
      // By keyboard: the mouse stays where it is (over a notification, below).
      const edit = async () => {
        await page.getByRole('button', { name: 'Client actions' }).press('Enter');
        await page.getByRole('menuitem', { name: 'Edit' }).press('Enter');
        await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeVisible();
      };

      await edit();
      await page.getByLabel('Name', { exact: true }).fill('Notice 1');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Client Saved!')).toBeVisible();
      // A notification under the pointer stays: the steps below may take longer than its 4 s
      // on a busy machine, and it must still be there when the next form opens.
      await page.locator('.mantine-Notification-root').first().hover();
      await expectUncovered(page, {
        'the Commands block': page
          .locator('section')
          .filter({ has: page.getByRole('heading', { name: 'Commands' }) })
          .last(),
        'the client actions': page.getByRole('button', { name: 'Client actions' }),
      });

      // The first notification is still showing: the form's buttons must be free to click.
      await edit();
      await page.getByRole('button', { name: 'Save' }).scrollIntoViewIfNeeded();
      await expectUncovered(page, {
        Save: page.getByRole('button', { name: 'Save' }),
        Cancel: page.getByRole('button', { name: 'Cancel' }),
      });
      await page.getByLabel('Name', { exact: true }).fill('Notice 2');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('heading', { name: 'Notice 2 (NTC)' })).toBeVisible();
      await expect(page.getByText('Client Saved!').first()).toBeVisible();
      await saveScreen(page, `notifications/after-two-saves-${viewport.width}`);
    });

    test('a notification with a title: its message is readable in both schemes', async ({
      page,
      staff,
    }) => {
      // A check without a credential only reads the host key: quick, and a titled notice.
      const sshd = await startSshd([]);
      try {
        const client = await seedClient(staff, { name: 'Titled', code: `TTL${viewport.width}` });
        const server = await staff.json<Server>('POST', '/api/servers', {
          clientId: client.id,
          label: 'titled',
          host: sshd.host,
          port: sshd.port,
          username: sshd.username,
        });
        expect(server.status).toBe(201);
        await page.goto(`/servers/${server.body.id}`);
        await page.getByRole('button', { name: 'Check now' }).click();
        const notice = page.locator('.mantine-Notification-root', { hasText: 'Check of titled' });
        await expect(notice).toContainText('Reachable');
        // Held under the pointer: it must still be there for both scans.
        await notice.hover();
        await switchScheme(page, 'light');
        expect(await axeViolations(page, ['color-contrast'])).toEqual([]);
        await saveScreen(page, `notifications/titled-${viewport.width}-light`);
        await switchScheme(page, 'dark');
        expect(await axeViolations(page, ['color-contrast'])).toEqual([]);
        await saveScreen(page, `notifications/titled-${viewport.width}-dark`);
      } finally {
        await sshd.close();
      }
    });
  });
}
