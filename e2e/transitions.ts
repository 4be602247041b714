import type { Page } from '@playwright/test';

/**
 * Waits for the page's finite CSS transitions and animations to end: so axe reads the colours a
 * person sees and not a frame halfway (a scheme change fades some colours, Mantine's
 * SegmentedControl labels, even under reduced motion), and so a click lands where a dialog
 * settles, not where a frame of its opening drew a button on a slow machine. `getAnimations()` brings styles up to
 * date first, so a transition the last change starts is in its list.
 */
export async function transitionsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
