import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { transitionsDone } from './transitions.ts';

/** What every scan checks: WCAG 2.1 A and AA. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Switches the system's colour scheme and waits for the app to follow it: it follows the
 * system, live, until someone picks a scheme.
 */
export async function switchScheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
}

/**
 * Scans the page with axe-core, WCAG 2.1 A and AA or only `rules`, once its transitions have
 * ended; a line for each element in violation, with the reason.
 */
export async function axeViolations(page: Page, rules?: string[]): Promise<string[]> {
  await transitionsDone(page);
  // Legacy mode runs axe in the page itself; the default finishes each run in a new blank page,
  // a second or more per scan on a loaded machine. The app has no frames, the one thing legacy
  // mode would leave out. Passes and the rest are summed up by one element each instead of all
  // (resultTypes): only violations are read, and building a selector for every element that
  // passed was a good part of each scan (docs/decisions/0009-test-suite-time.md).
  await putAxeIn(page);
  const builder = new AxeBuilder({ page, axeSource: AXE_IN_PAGE })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] });
  const result = await (rules ? builder.withRules(rules) : builder.withTags(WCAG_21_AA)).analyze();
  return result.violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      const why = [...node.any, ...node.all, ...node.none][0]?.message ?? violation.help;
      return `${violation.id} (${violation.impact ?? 'no impact'}) at ${node.target.join(' ')}: ${why}`;
    }),
  );
}

export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  expect(await axeViolations(page), `axe violations on ${screen}`).toEqual([]);
}

/** What AxeBuilder evaluates as axe's source once `putAxeIn` has put axe in the page: nothing. */
const AXE_IN_PAGE = ';';

/**
 * axe-core's minified build (650 KB): the same rules and messages as `axe.source` (1.5 MB), and
 * a quarter less time to evaluate in a page (200–230 ms against 275, medians of 8, Chromium on
 * the 2-core machine), about 50 times a run.
 */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * axe-core, evaluated in the page once for each document it loads. AxeBuilder evaluates its
 * source twice at every scan otherwise.
 */
async function putAxeIn(page: Page): Promise<void> {
  if (await page.evaluate(() => 'axe' in window)) return;
  await page.evaluate(AXE_SOURCE);
}
