import type { Locator, Page } from '@playwright/test';
import { test, expect, seedClient } from './fixtures.ts';

/** Whether two boxes share any area (touching edges do not count). */
function overlap(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Fails when any notification on screen covers any part of `targets`. */
async function expectUncovered(page: Page, targets: Record<string, Locator>): Promise<void> {
  const notices = page.locator('.mantine-Notification-root');
  await expect(notices.first()).toBeVisible();
  for (const notice of await notices.all()) {
    const box = await notice.boundingBox();
    if (!box) continue;
    for (const [name, target] of Object.entries(targets)) {
      const covered = await target.boundingBox();
      if (covered) expect(overlap(box, covered), `a notification covers ${name}`).toBe(false);
    }
  }
}

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
      await page.getByRole('button', { name: 'Save' }).click({ timeout: 2_000 });
      await expect(page.getByRole('heading', { name: 'Notice 2 (NTC)' })).toBeVisible();
      await expect(page.getByText('Client Saved!').first()).toBeVisible();
      await page.screenshot({
        path: test.info().outputPath(`after-two-saves-${viewport.width}.png`),
      });
    });
  });
}
