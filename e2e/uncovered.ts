import { expect, type Locator, type Page } from '@playwright/test';

type Box = { x: number; y: number; width: number; height: number };

/** Whether two boxes share any area (touching edges do not count). */
function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * The part of `box` a person can see: below the app's header, which stays on top while the page
 * scrolls (selecting a client far down the list scrolls the panel up under it), and above the
 * bottom of the window. Null when none of it shows.
 */
function seenPart(box: Box, headerBottom: number, windowHeight: number): Box | null {
  const top = Math.max(box.y, headerBottom);
  const bottom = Math.min(box.y + box.height, windowHeight);
  return bottom > top ? { ...box, y: top, height: bottom - top } : null;
}

/**
 * Fails when any notification on screen covers any part of `targets` a person can see. Page
 * content under the app's header is out of sight; a dialog's own parts (`inDialog`) lie above it.
 */
export async function expectUncovered(
  page: Page,
  targets: Record<string, Locator>,
  { inDialog = false } = {},
): Promise<void> {
  const notices = page.locator('.mantine-Notification-root');
  await expect(notices.first()).toBeVisible();
  const header = inDialog ? null : await page.locator('header').first().boundingBox();
  const headerBottom = header ? header.y + header.height : 0;
  const windowHeight = page.viewportSize()?.height ?? Infinity;
  for (const notice of await notices.all()) {
    const box = await notice.boundingBox();
    if (!box) continue;
    for (const [name, target] of Object.entries(targets)) {
      const targetBox = await target.boundingBox();
      const seen = targetBox && seenPart(targetBox, headerBottom, windowHeight);
      if (seen) expect(overlap(box, seen), `a notification covers ${name}`).toBe(false);
    }
  }
}
