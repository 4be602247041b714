import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { Page } from '@playwright/test';
import { RUN_LOG_CAP_LINES, type App, type Run } from '../src/shared/apps.ts';
import { setAccess } from '../src/server/testing/access.ts';
import { shellGate } from '../src/server/testing/shell-gate.ts';
import { appOnSshd, logLines, outputLine, runState, withSshd } from './app-fixtures.ts';
import { test, expect, seedClient, signInContext } from './fixtures.ts';

const panel = (page: Page) => page.getByRole('region', { name: 'Selected Client' });
const runLog = (page: Page) => page.getByRole('log', { name: /^Output of the deploy/ });

async function deploy(page: Page) {
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: /^Deploy / });
  // appOnSshd's server has the temp folder as its uiDir: the run goes there.
  await expect(confirm).toContainText(`, in ${os.tmpdir()}:`);
  await confirm.getByRole('button', { name: 'Deploy' }).click();
  await expect(confirm).toHaveCount(0);
}

test('add an app from the Apps section: errors next to fields, then found and in the panel', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, {
    name: 'Apps Co',
    code: 'APP1',
    server: { host: 'prod.apps1.example', username: 'deploy', uiDir: '/srv/apps1' },
  });

  await page.goto('/apps');
  await expect(page.getByRole('heading', { name: 'Apps', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add app' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  const name = dialog.getByLabel('Name', { exact: true });
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Enter a name, such as web or api')).toBeVisible();
  await expect(dialog.getByText('Choose the client')).toBeVisible();

  await dialog.getByLabel('Client', { exact: true }).fill('Apps Co');
  await page.getByRole('option', { name: 'Apps Co (APP1)' }).click();
  // Its only server is chosen for it, and its uiDir is the default directory.
  await expect(dialog.getByLabel('Server', { exact: true })).toHaveValue(/prod\.apps1\.example/);
  await expect(dialog.getByText("Leave empty for the server's uiDir: /srv/apps1")).toBeVisible();
  await name.fill('storefront-e2e');
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await dialog.getByRole('textbox', { name: 'Domain 1' }).fill('ftp://storefront.example');
  await dialog.getByLabel('Run command', { exact: true }).fill('deploy "{accessToken}"');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Domain 1' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(dialog.getByText('Must be an http:// or https:// URL')).toBeVisible();
  await expect(dialog.getByLabel('Run command', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(
    dialog.getByText(/^The command placeholder \{accessToken\} must stand/),
  ).toBeVisible();

  await dialog.getByRole('textbox', { name: 'Domain 1' }).fill('https://storefront.example');
  await dialog.getByLabel('Run command', { exact: true }).fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('App saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'storefront-e2e', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/apps\/[A-Za-z0-9_-]+$/);
  await expect(page.getByText('/srv/apps1', { exact: true })).toBeVisible();
  await expect(page.getByText('Not deployed yet.').first()).toBeVisible();

  // Listed with its client, server and domain, found by search, and the filter in the address.
  await page.getByRole('link', { name: 'All apps' }).click();
  await page.getByLabel('Search apps').fill('storefront-e2e');
  const table = page.getByRole('table', { name: 'Apps' });
  await expect(table.getByRole('row')).toHaveCount(2);
  const row = table.getByRole('row', { name: /storefront-e2e/ });
  await expect(row).toContainText('Apps Co (APP1)');
  await expect(row).toContainText('Never deployed');
  await expect(row).toContainText('https://storefront.example');
  // A filter, and both kept in the address.
  await page.getByRole('combobox', { name: 'Last deploy' }).click();
  await page.getByRole('option', { name: 'Succeeded', exact: true }).click();
  await expect(page.getByText('No app matches.')).toBeVisible();
  await expect(page).toHaveURL(/[?&]state=succeeded/);
  await expect(page).toHaveURL(/[?&]q=storefront-e2e/);

  // The client's panel lists it, and adds one for that client.
  await page.goto(`/clients/${client.id}`);
  await expect(panel(page).getByRole('link', { name: 'storefront-e2e' })).toBeVisible();
  await panel(page).getByRole('button', { name: 'Add app' }).click();
  const add = page.getByRole('dialog', { name: 'Add app' });
  await expect(add.getByLabel('Client', { exact: true })).toHaveValue('Apps Co (APP1)');
  await add.getByLabel('Name', { exact: true }).fill('api-e2e');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('App saved.')).toBeVisible();
  await expect(panel(page).getByRole('link', { name: 'api-e2e' })).toBeVisible();
});

test('a deploy streams its lines in order to two browsers, then its exit code', async ({
  page,
  browser,
  baseURL,
  staff,
  tempFolder,
}) => {
  test.setTimeout(120_000);
  const go = shellGate(tempFolder, 'go');
  // Standard output's line 4 only once the page has shown standard error's line 3: the two
  // pipes are read apart, so only that makes the order certain.
  const afterErr = shellGate(tempFolder, 'after-err');
  const { sshd, app } = await appOnSshd(
    staff,
    'RUN1',
    `echo line 1; echo line 2; ${go.wait}; echo line 3 >&2; ${afterErr.wait}; echo line 4; echo line 5`,
  );
  const other = await browser.newContext({ baseURL });
  await withSshd(sshd, async () => {
    await page.goto(`/apps/${app.id}`);
    await deploy(page);
    const log = runLog(page);
    await expect(outputLine(log, 'line 2')).toBeVisible({ timeout: 30_000 });

    // A colleague opens it late: everything so far, then the rest as it is written.
    await signInContext(other, staff);
    const late = await other.newPage();
    await late.goto(`/apps/${app.id}`);
    const lateLog = runLog(late);
    await expect(outputLine(lateLog, 'line 2')).toBeVisible();
    await expect(outputLine(lateLog, 'line 3')).toHaveCount(0);
    await expect(late.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();

    await go.open();
    await expect(outputLine(log, 'line 3')).toBeVisible({ timeout: 30_000 });
    await afterErr.open();
    for (const [who, shown] of [
      ['starter', log],
      ['late viewer', lateLog],
    ] as const) {
      await expect(outputLine(shown, 'line 5'), who).toBeVisible({ timeout: 30_000 });
      // In the order written, each once; standard error marked in words as well as colour.
      const lines = await logLines(shown);
      const output = lines.filter((line) => !line.startsWith('sys'));
      expect(output, who).toEqual(['line 1', 'line 2', 'errline 3', 'line 4', 'line 5']);
      // Run in the server's uiDir, as the confirmation said.
      expect(lines, who).toContain(`sysIn ${os.tmpdir()}`);
    }
    await expect(runState(page)).toHaveText(/^Succeeded\s*exit code 0 · /);
    await expect(runState(late)).toHaveText(/^Succeeded\s*exit code 0 · /);
    await expect(late.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
    // In the history, and the whole log a download away.
    await expect(page.getByRole('list', { name: 'Runs' }).getByRole('link')).toHaveCount(1);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download log' }).click();
    const file = await (await download).path();
    expect(await readFile(file, 'utf8')).toMatch(/line 1[\s\S]*line 5/);
  });
  await other.close();
});

test('a failing command shows failed with its exit code, its token masked', async ({
  page,
  staff,
}) => {
  const token = 'tok-e2e-never-shown-7731';
  expect((await staff.json('PUT', '/api/me/access-token', { accessToken: token })).status).toBe(
    200,
  );
  const { sshd, app } = await appOnSshd(
    staff,
    'RUN2',
    // Colour, a bidi override, a progress bar's CR, OSC 52 (a terminal's clipboard) and the
    // token split by a colour code to hide it from the masker.
    `echo about to fail with {accessToken}; printf 'red \\033[31mtext\\033[0m \\342\\200\\256evil\\n50%%\\r100%%\\033]52;c;cm0=\\007\\nsplit ${token.slice(0, 8)}\\033[0m${token.slice(8)}\\n'; echo boom >&2; exit 3`,
  );
  await withSshd(sshd, async () => {
    await page.goto(`/apps/${app.id}`);
    await deploy(page);
    await expect(runState(page)).toHaveText(/^Failed\s*exit code 3 · /, { timeout: 30_000 });
    await expect.poll(() => logLines(runLog(page))).toContain('errboom');
    // The access token went to the command, and is masked wherever the run is shown.
    const lines = await logLines(runLog(page));
    expect(lines).toContain('about to fail with ••••••');
    expect(lines.join('\n')).not.toContain(token);
    await expect(page.getByText(token)).toHaveCount(0);
    // Escape sequences cut out, the bidi control a visible mark, the CR a line break.
    expect(lines).toEqual(
      expect.arrayContaining(['red text U+202Eevil', '50%', '100%', 'split ••••••']),
    );
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(lines.join('\n')).not.toMatch(/[\x1b\r\u202e]/u);
    await expect(runLog(page).getByLabel('hidden character U+202E')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download log' }).click();
    const file = await readFile(await (await download).path(), 'utf8');
    expect(file).toContain('red text <U+202E>evil\n50%\n100%\nsplit ••••••\n');
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(file).not.toMatch(/[\x1b\r\u202e]/u);
    await page.goto('/apps?state=failed');
    await page.getByLabel('Search apps').fill(app.name);
    await expect(page.getByRole('row', { name: new RegExp(app.name) })).toContainText('Failed');
  });
});

test('one deploy at a time: a second is refused naming who runs it; Cancel stops it', async ({
  page,
  staff,
}) => {
  const { sshd, app } = await appOnSshd(
    staff,
    'RUN3',
    'seq 1 80; echo started; sleep 120; echo never',
  );
  await withSshd(sshd, async () => {
    await page.goto(`/apps/${app.id}`);
    await deploy(page);
    const log = runLog(page);
    await expect(outputLine(log, 'started')).toBeVisible({ timeout: 30_000 });
    // More lines than the box holds: it follows the end, until the reader scrolls up.
    const distanceFromEnd = () =>
      log.evaluate((box) => box.scrollHeight - box.scrollTop - box.clientHeight);
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    await log.evaluate((box) => box.scrollTo({ top: 0 }));
    await page.getByRole('button', { name: 'Follow the end' }).click();
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    await expect(page.getByRole('button', { name: 'Follow the end' })).toHaveCount(0);

    const refused = await staff.json<{ error: string }>('POST', `/api/apps/${app.id}/runs`);
    expect(refused.status).toBe(409);
    await deploy(page);
    const alert = page.getByRole('alert').filter({ hasText: 'The deploy did not start' });
    await expect(alert).toContainText(refused.body.error);

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(runState(page)).toHaveText(/^Cancelled/, { timeout: 30_000 });
    await expect(outputLine(log, 'never')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);

    // What runs is what was confirmed: a command changed while the dialog is open is refused.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: /^Deploy / });
    await expect(confirm).toContainText('echo never');
    const shown = (await staff.json<App>('GET', `/api/apps/${app.id}`)).body;
    const changed = await staff.json('PUT', `/api/apps/${app.id}`, {
      name: shown.name,
      serverId: shown.server!.id,
      command: 'echo changed meanwhile',
      version: shown.version,
    });
    expect(changed.status).toBe(200);
    await confirm.getByRole('button', { name: 'Deploy' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'The deploy did not start' }),
    ).toContainText('The app was changed since you confirmed it');
    await expect(runState(page)).toHaveText(/^Cancelled/);
  });
});

test('a viewer sees the runs and their logs, but no Deploy, Edit, Remove or Cancel', async ({
  page,
  server,
  staff,
}) => {
  const { sshd, app, client } = await appOnSshd(staff, 'RUN4', 'echo viewed output');
  await withSshd(sshd, async () => {
    const started = await staff.json<Run>('POST', `/api/apps/${app.id}/runs`);
    expect(started.status).toBe(201);
    await expect
      .poll(async () => (await staff.json<Run>('GET', `/api/runs/${started.body.id}`)).body.state, {
        timeout: 30_000,
      })
      .toBe('succeeded');
  });
  await setAccess(server, staff, { role: 'viewer' });
  await page.goto(`/apps/${app.id}`);
  await expect(page.getByRole('heading', { name: app.name, level: 1 })).toBeVisible();
  await expect(outputLine(runLog(page), 'viewed output')).toBeVisible();
  await expect(runState(page)).toHaveText(/^Succeeded\s*exit code 0 · /);
  for (const name of ['Deploy', 'Edit', 'Remove', 'Cancel']) {
    await expect(page.getByRole('button', { name, exact: true }), name).toHaveCount(0);
  }
  await page.goto('/apps');
  await expect(page.getByRole('button', { name: 'Add app' })).toHaveCount(0);
  await page.goto(`/clients/${client.id}`);
  await expect(panel(page).getByRole('link', { name: app.name })).toBeVisible();
  await expect(panel(page).getByRole('button', { name: 'Add app' })).toHaveCount(0);
});

test('on a phone: a card per app, and a run’s log without sideways scrolling', async ({
  page,
  staff,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { sshd, app } = await appOnSshd(
    staff,
    'RUN5',
    'echo a rather long line of output that has to wrap on a narrow phone screen; echo done',
  );
  await withSshd(sshd, async () => {
    const started = await staff.json<Run>('POST', `/api/apps/${app.id}/runs`);
    expect(started.status).toBe(201);
    await expect
      .poll(async () => (await staff.json<Run>('GET', `/api/runs/${started.body.id}`)).body.state, {
        timeout: 30_000,
      })
      .toBe('succeeded');
  });
  await page.goto(`/apps?q=${app.name}`);
  const cards = page.getByRole('list', { name: 'Apps' });
  await expect(cards.getByRole('listitem')).toHaveCount(1);
  await expect(cards.getByRole('listitem')).toContainText('Succeeded');
  await cards.getByRole('link', { name: app.name }).click();
  await expect(outputLine(runLog(page), 'done')).toBeVisible();
  await expect(runState(page)).toHaveText(/^Succeeded\s*exit code 0 · /);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a run with more lines than a log keeps says where it was cut', async ({ page, staff }) => {
  const { sshd, app } = await appOnSshd(
    staff,
    'RUN6',
    `yes 'a line' | head -n ${RUN_LOG_CAP_LINES + 10}; echo after-the-cut`,
  );
  await withSshd(sshd, async () => {
    const started = await staff.json<Run>('POST', `/api/apps/${app.id}/runs`);
    expect(started.status).toBe(201);
    await expect
      .poll(async () => (await staff.json<Run>('GET', `/api/runs/${started.body.id}`)).body, {
        timeout: 60_000,
      })
      .toMatchObject({ state: 'succeeded', logTruncated: true });
  });
  await page.goto(`/apps/${app.id}`);
  await expect(runState(page)).toHaveText(/^Succeeded\s*exit code 0 · /, { timeout: 30_000 });
  await expect(
    page.getByText('The log was cut at 5 MB or 50,000 lines; the command ran on after that.'),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('after-the-cut', { exact: true })).toHaveCount(0);
});
