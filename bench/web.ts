import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { Session } from '../src/server/testing/test-server.ts';
import { median } from './stats.ts';

export interface WebResult {
  /** gzip -9 bytes of the JS / CSS files a page loads (its entry and the chunks it fetches). */
  signInJsGzip: number;
  signInCssGzip: number;
  dashboardJsGzip: number;
  dashboardCssGzip: number;
  /** From navigation start to the first row of the list painted (median of fresh tabs). */
  listVisibleMs: number;
  /** The same on a second visit: code from the browser's cache, the list revalidated (304). */
  listVisibleWarmMs: number;
  /** From a key press in the search box to the next frame with the filtered list. */
  keystrokeMs: number;
  /** List rows in the DOM with every client loaded (virtualized: only those in view). */
  rowsInDom: number;
}

/** Debian's full browser, as a person would use it (not the tests' headless shell). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** gzip sizes of the scripts and stylesheets `page` loaded while `load` ran. */
async function loadedAssets(
  page: Page,
  webDir: string,
  load: () => Promise<void>,
): Promise<{ js: number; css: number }> {
  const files = new Set<string>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/\.(js|css)$/.test(pathname)) files.add(pathname);
  });
  await load();
  let js = 0;
  let css = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(webDir, file));
    const size = zlib.gzipSync(bytes, { level: 9 }).length;
    if (file.endsWith('.js')) js += size;
    else css += size;
  }
  return { js, css };
}

const FIRST_ROW = 'nav[aria-label="Clients"] li';

export async function measureWeb(options: {
  url: string;
  webDir: string;
  session: Session;
  runs: number;
}): Promise<WebResult> {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  try {
    const viewport = { width: 1440, height: 900 };
    const signedOut = await browser.newContext({ viewport, baseURL: options.url });
    const signInPage = await signedOut.newPage();
    const signIn = await loadedAssets(signInPage, options.webDir, async () => {
      await signInPage.goto('/sign-in');
      await signInPage.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await signInPage.waitForLoadState('networkidle');
    });
    await signedOut.close();

    const visible: number[] = [];
    const warm: number[] = [];
    const keystrokes: number[] = [];
    let dashboard = { js: 0, css: 0 };
    let rowsInDom = 0;
    for (let run = 0; run < options.runs; run += 1) {
      // A fresh context each time: a cold cache, as on the first visit of the day.
      const context = await browser.newContext({ viewport, baseURL: options.url });
      await context.addCookies(
        [...options.session.cookies].map(([name, value]) => ({ name, value, url: options.url })),
      );
      const page = await context.newPage();
      dashboard = await loadedAssets(page, options.webDir, async () => {
        await page.goto('/', { waitUntil: 'commit' });
        // Polled each animation frame: the time of the first frame that has a row.
        const at = await page.waitForFunction(
          (selector) => (document.querySelector(selector) ? performance.now() : 0),
          FIRST_ROW,
          { polling: 'raf', timeout: 30_000 },
        );
        visible.push((await at.jsonValue()) as number);
      });
      rowsInDom = await page.locator(FIRST_ROW).count();
      // A second visit in the same tab: what a reload during the day costs.
      await page.goto('/', { waitUntil: 'commit' });
      const warmAt = await page.waitForFunction(
        (selector) => (document.querySelector(selector) ? performance.now() : 0),
        FIRST_ROW,
        { polling: 'raf', timeout: 30_000 },
      );
      warm.push((await warmAt.jsonValue()) as number);
      const search = page.getByRole('searchbox', { name: 'Search clients' });
      await search.focus();
      for (const key of ['4', '2', '1']) {
        // The listeners are in place (this evaluate has returned) before the key goes down;
        // the time is read afterwards, with a limit, so a key that changes nothing is an error
        // rather than a bench that waits for ever.
        await page.evaluate(() => {
          const w = window as unknown as { __keystroke?: Promise<number> };
          w.__keystroke = new Promise<number>((resolve) => {
            const input = document.querySelector('input[type="search"]')!;
            let pressed = 0;
            input.addEventListener('keydown', (e) => (pressed = e.timeStamp), {
              once: true,
              capture: true,
            });
            const observer = new MutationObserver(() => {
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - pressed));
            });
            observer.observe(document.querySelector('nav[aria-label="Clients"]')!, {
              childList: true,
              subtree: true,
              characterData: true,
            });
          });
        });
        await page.keyboard.press(key);
        keystrokes.push(
          await page.evaluate(
            (key) =>
              Promise.race([
                (window as unknown as { __keystroke: Promise<number> }).__keystroke,
                new Promise<number>((_, reject) =>
                  setTimeout(
                    () => reject(new Error(`the list did not change after "${key}"`)),
                    10_000,
                  ),
                ),
              ]),
            key,
          ),
        );
        await page.waitForTimeout(100);
      }
      await context.close();
    }
    return {
      signInJsGzip: signIn.js,
      signInCssGzip: signIn.css,
      dashboardJsGzip: dashboard.js,
      dashboardCssGzip: dashboard.css,
      listVisibleMs: median(visible),
      listVisibleWarmMs: median(warm),
      keystrokeMs: median(keystrokes),
      rowsInDom,
    };
  } finally {
    await browser.close();
  }
}
