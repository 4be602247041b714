import { test, expect } from './fixtures.ts';

/**
 * A section's search and filters live in the address (`lib/use-url-search.ts`): the search is
 * written once it has settled, a filter at once. Both writes must land when they come together.
 */
test('a filter picked as the search settles keeps both in the address', async ({ page, staff }) => {
  void staff;
  await page.clock.install();
  await page.goto('/servers');
  const search = page.getByRole('textbox', { name: 'Search servers' });
  await expect(search).toBeVisible();
  // Time stands still in the page: the search settles (250 ms) when the test says so. The pause
  // is set from the page's own clock: on a loaded host it can run ahead of this process's.
  const pageNow = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(new Date(pageNow + 5_000));
  await search.fill('zz');
  await page.clock.runFor(240);
  // In one task, as when a person picks the filter in the moment the search settles: the
  // option's click writes the filter, then the clock that clock.install() put in the page
  // (Playwright's own controller) lets the search's last 10 ms pass. page.clock.runFor would
  // come in a later task, after React had shown the filter's address.
  await page.evaluate(async () => {
    const option = [...document.querySelectorAll<HTMLElement>('[role=option]')].find(
      (element) => element.textContent === 'Unreachable',
    );
    if (!option) throw new Error('no Unreachable option');
    option.click();
    const { controller } = (
      globalThis as unknown as { __pwClock: { controller: { runFor(ms: number): Promise<void> } } }
    ).__pwClock;
    await controller.runFor(20);
  });
  await page.clock.resume();
  await expect(page).toHaveURL(/[?&]q=zz(&|$)/);
  await expect(page).toHaveURL(/[?&]status=unreachable(&|$)/);
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Unreachable');
});
