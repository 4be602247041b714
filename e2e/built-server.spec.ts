import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, signUpThroughUi } from './fixtures.ts';
import { MailCatcher } from '../src/server/testing/mail-catcher.ts';
import { serverPort } from '../src/server/testing/free-port.ts';
import { spawnServer, type ServerProcess } from '../src/server/testing/spawn-server.ts';

/**
 * What `npm run serve` runs: the server bundle of `npm run build` (dist/server/main.mjs), as a
 * process of its own, on a fresh SQLite file, finding the built web app by itself. The other
 * browser tests run the TypeScript sources in the test's process; this one proves the bundle
 * is the same program.
 */
const test = base.extend<object, { built: { server: ServerProcess; mail: MailCatcher } }>({
  built: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
    async ({}, use) => {
      const entry = path.resolve(import.meta.dirname, '../dist/server/main.mjs');
      if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
      const mail = await new MailCatcher().start();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-e2e-built-'));
      const server = await spawnServer(
        { PORT: String(await serverPort()), DATA_DIR: dataDir, SMTP_URL: mail.url },
        { entry },
      );
      await use({ server, mail });
      await server.stop();
      await mail.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ built }, use) => use(built.server.url),
});

test('the built server: sign up by mail, add a client, see it live in another tab', async ({
  page,
  context,
  built,
}) => {
  const { url } = built.server;
  await signUpThroughUi(page, { url, mail: built.mail }, { name: 'Bundle Tester' });
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByText('No client selected')).toBeVisible();

  await page.getByRole('button', { name: 'Add client' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Bundled Hosting');
  await page.getByLabel('Code', { exact: true }).fill('BUN');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page
      .getByRole('region', { name: 'Selected Client' })
      .getByRole('heading', { name: 'Bundled Hosting (BUN)' }),
  ).toBeVisible();
  // The other tab was told over the live stream; nobody reloaded it.
  await expect(other.getByRole('link', { name: /Bundled Hosting \(BUN\)/ })).toBeVisible();

  // The build's precompressed, hashed files are served as such.
  const script = await page.locator('script[type="module"]').first().getAttribute('src');
  expect(script).toMatch(/^\/assets\/.+\.js$/);
  const asset = await fetch(`${url}${script}`, { headers: { 'accept-encoding': 'br' } });
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-encoding')).toBe('br');
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(built.server.output()).not.toMatch(/"level":(50|60)/);
});
