import path from 'node:path';
import type { Locator, Page } from '@playwright/test';

/**
 * E2E_SCREENS names a folder for screenshots of the screens a person should look at after a
 * change: `E2E_SCREENS=/tmp/screens npm run test:e2e`. Unset, as in CI, none is taken: each
 * costs the browser a render and a PNG, and nobody looks at them there.
 */
const SCREENS = process.env.E2E_SCREENS;

/**
 * Saves `E2E_SCREENS/<name>.png` of the page (or of the part) when that folder is named, its
 * animations run to their end (a fade from the scheme scanned a moment ago, say).
 */
export async function saveScreen(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!SCREENS) return;
  const file = path.join(SCREENS, `${name}.png`);
  const shot = { path: file, animations: 'disabled' } as const;
  if ('goto' in target) await target.screenshot({ ...shot, ...options });
  else await target.screenshot(shot);
}
