import fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { ClientExport } from '../src/shared/client-transfer.ts';
import { test, expect, holdBack, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';
import { expectNoAxeViolations } from './axe.ts';

const section = (page: Page) => page.getByRole('region', { name: 'Import and export' });

async function chooseFile(page: Page, name: string, content: unknown): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await section(page).getByRole('button', { name: 'Import from a file' }).click();
  await (
    await chooser
  ).setFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(content)),
  });
}

test('export with passwords warns first, downloads the file and records the read', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Exported Ltd', server: { password: 'pw-e2e' } });
  await page.goto('/settings');
  const part = section(page);
  await expect(part.getByText('every server password in clear')).toHaveCount(0);
  await part.getByRole('checkbox', { name: 'Include passwords' }).check();
  await expect(part.getByText('The file will hold every server password in clear')).toBeVisible();

  const download = page.waitForEvent('download');
  await part.getByRole('button', { name: 'Export clients with passwords' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}-with-passwords\.json$/);
  const content = JSON.parse(fs.readFileSync(await file.path(), 'utf8')) as ClientExport;
  expect(content.clients.find((c) => c.id === client.id)?.server.password).toBe('pw-e2e');
  await expect(page.getByText('Clients exported.')).toBeVisible();

  await page.goto(`/clients/${client.id}`);
  await expect(
    page.getByRole('list', { name: 'History' }).getByRole('listitem').first(),
  ).toHaveText(/^grace-\S+@example\.test read the password in an export/);
});

test('import shows the dry run, then imports the valid documents with a progress bar', async ({
  page,
  staff,
}) => {
  void staff;
  const run = Date.now().toString(36);
  const documents = Object.fromEntries(
    Array.from({ length: 30 }, (_, n) => [
      `e2e${run}${String(n).padStart(4, '0')}`,
      {
        name: `Imported ${run} ${n}`,
        code: `IMP${n}`,
        tags: 'eu-west-1, imported',
        startDate: { _seconds: 1_700_000_000, _nanoseconds: 0 },
        server: { host: `imp-${n}.example.com`, port: n === 4 ? 'ssh' : 22 },
        domains: n === 9 ? ['not a url'] : [`https://imp-${n}.example.com`],
      },
    ]),
  );
  await page.goto('/settings');
  await chooseFile(page, 'firestore-clients.json', { clients: documents });

  const dialog = page.getByRole('dialog', { name: 'Import firestore-clients.json' });
  const summary = dialog.getByRole('table', { name: 'Import summary' });
  await expect(summary.getByRole('row', { name: 'New clients' })).toContainText('28');
  await expect(summary.getByRole('row', { name: 'Invalid' })).toContainText('2');
  const invalid = dialog.getByRole('table', { name: 'Invalid documents' });
  await expect(invalid.getByRole('row')).toHaveText([
    'DocumentIdReason',
    `4e2e${run}0004server.port: Must be a number`,
    `9e2e${run}0009domains.0: Must be an http:// or https:// URL`,
  ]);
  await saveScreen(page, 'transfer/import-review');

  // The answer is held until the bar has been seen, so its server phase is always there to see.
  const release = await holdBack(page, '**/api/clients/import?skipInvalid=1');
  await dialog.getByRole('button', { name: 'Import 28 clients' }).click();
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  release();
  await expect(page.getByText('Import done: 28 new, 0 updated.')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await page.goto(`/clients/e2e${run}0000`);
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(panel.getByRole('heading', { name: `Imported ${run} 0 (IMP0)` })).toBeVisible();
  await expect(panel.getByText('Client since: Nov 14, 2023')).toBeVisible();
  await expect(
    panel.getByRole('list', { name: 'History' }).getByRole('listitem').first(),
  ).toHaveText(/^grace-\S+@example\.test imported it/);
  await expect(page.getByRole('link', { name: new RegExp(`Imported ${run} 4 `) })).toHaveCount(0);
});

test('a file that is not JSON is named at the file input, nothing is sent', async ({
  page,
  staff,
}) => {
  void staff;
  await page.goto('/settings');
  const chooser = page.waitForEvent('filechooser');
  await section(page).getByRole('button', { name: 'Import from a file' }).click();
  await (
    await chooser
  ).setFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{ nope') });
  await expect(section(page).getByText(/^This file is not JSON: /)).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a file that is not UTF-8 is refused at the file input, nothing is imported', async ({
  page,
  staff,
}) => {
  const run = Date.now().toString(36);
  await page.goto('/settings');
  const chooser = page.waitForEvent('filechooser');
  await section(page).getByRole('button', { name: 'Import from a file' }).click();
  // Latin-1: "è" and "é" are one byte each, neither of them UTF-8.
  await (
    await chooser
  ).setFiles({
    name: 'latin1.json',
    mimeType: 'application/json',
    buffer: Buffer.from(`[{"name":"Cr\xe8me Caf\xe9 ${run}"}]`, 'latin1'),
  });
  await expect(
    section(page).getByText(
      'This file is not UTF-8: save it as UTF-8 (most editors offer it in "Save as"), then choose it again.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const found = await staff.json<{ clients: unknown[] }>(
    'GET',
    `/api/clients?q=${encodeURIComponent(run)}`,
  );
  expect(found.body.clients).toEqual([]);
});

test('ids quoted from the file show their bidi characters as markers', async ({ page, staff }) => {
  void staff;
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/settings');
  // Shown as it is, U+202E turns the rest around: "abc‮gpj.exe" reads "abcexe.jpg".
  await chooseFile(page, 'bidi-ids.json', [
    { __id__: 'abc\u202Egpj.exe', name: 'Bidi id', domains: ['not a url'] },
  ]);
  const dialog = page.getByRole('dialog', { name: 'Import bidi-ids.json' });
  const invalid = dialog.getByRole('table', { name: 'Invalid documents' });
  const row = invalid.getByRole('row').nth(1);
  await expect(row).toContainText('abcU+202Egpj.exe');
  await expect(row.locator('mark')).toHaveAttribute('aria-label', 'hidden character U+202E');
  await expectNoAxeViolations(page, 'import dialog with a bidi id');
  await saveScreen(page, 'transfer/import-bidi-id-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row).toContainText('abcU+202Egpj.exe');
  await saveScreen(page, 'transfer/import-bidi-id-390');
  await expectNoAxeViolations(page, 'import dialog with a bidi id, narrow');
});

test('a browser on the dashboard takes a 2,000-client import in a few list refetches', async ({
  page,
  staff,
}) => {
  await page.goto('/');
  await expect(page.getByText('No client selected')).toBeVisible();
  let listFetches = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/clients') listFetches += 1;
  });
  // Named apart from other tests' clients (live.spec.ts filters its own by "Live").
  const run = Date.now().toString(36);
  const documents = Array.from({ length: 2000 }, (_, n) => ({
    name: `Bulk ${run} ${n}`,
    code: `L${n}`,
  }));
  const report = await staff.json<{ created: number }>('POST', '/api/clients/import', documents);
  expect(report.body.created).toBe(2000);
  await page.getByRole('searchbox').fill(`Bulk ${run} 1999`);
  await expect(
    page.getByRole('link', { name: new RegExp(`Bulk ${run} 1999 \\(L1999\\)`) }),
  ).toBeVisible();
  // Each event used to trigger its own refetch of the whole list: 2,000 of them. Events that
  // come together share one (50 ms apart at most); a starved renderer takes them in more.
  expect(listFetches).toBeLessThan(200);
});

test('a version 2 file without secrets: servers whose key the vault lacks are a warning', async ({
  page,
  staff,
}) => {
  void staff;
  const run = Date.now().toString(36);
  const at = new Date().toISOString();
  const server = (label: string, primary: boolean, credentialId: string | null) => ({
    label,
    host: `${label}.v2-${run}.example.com`,
    port: 22,
    username: 'deploy',
    uiDir: '/srv/ui',
    private: true,
    primary,
    credentialId,
    hostKey: null,
  });
  const file: ClientExport = {
    format: 'clients-manager-export',
    version: 2,
    exportedAt: at,
    includesSecrets: false,
    clients: [
      {
        id: `v2${run}`,
        name: `Two servers ${run}`,
        code: 'TWO',
        description: '',
        tags: [],
        startDate: '2026-01-05',
        server: {
          host: `main.v2-${run}.example.com`,
          port: 22,
          username: 'deploy',
          private: true,
          uiDir: '/srv/ui',
          hasPassword: false,
        },
        servers: [server('main', true, null), server('staging', false, `key${run}`)],
        domains: [],
        createdAt: at,
        createdBy: null,
        updatedAt: at,
        updatedBy: null,
        version: 1,
      },
    ],
    credentials: [
      { id: `key${run}`, name: 'Deploy key', kind: 'ssh-key', publicKey: null, fingerprint: null },
    ],
  };
  await page.goto('/settings');
  await chooseFile(page, 'v2-export.json', file);

  const dialog = page.getByRole('dialog', { name: 'Import v2-export.json' });
  const summary = dialog.getByRole('table', { name: 'Import summary' });
  await expect(summary.getByRole('row', { name: 'New clients' })).toContainText('1');
  const warnings = dialog.getByRole('table', { name: 'Import warnings' });
  await expect(warnings.getByRole('row').nth(1)).toContainText(`0v2${run}servers.1.credentialId`);
  await saveScreen(page, 'transfer/import-warnings');
  await dialog.getByRole('button', { name: 'Import 1 client' }).click();
  await expect(page.getByText('Import done: 1 new, 0 updated.')).toBeVisible();
});
