import type { Page } from '@playwright/test';
import { test, expect, holdBack, seedClient } from './fixtures.ts';
import { setAccess } from '../src/server/testing/access.ts';
import { appOnSshd, outputLine, runState, withSshd } from './app-fixtures.ts';
import { axeViolations, switchScheme } from './axe.ts';

/*
 * Every screen, scanned by axe-core against WCAG 2.1 A and AA, in light and dark mode at a
 * desktop and a phone size. The list of screens is also in docs/accessibility.md: a new screen
 * is added to both.
 *
 * Each test walks through its screens in one page and reports every screen's violations at the
 * end, so one run names all of them. Each screen is scanned in full in the light scheme, then
 * switched to dark where it stands and scanned again for what a scheme changes: colours. The
 * two schemes share every element, name and role, so scanning those twice found nothing more
 * and took half of this file's time.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1366, height: 768 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** The rules whose outcome depends on colours: what the dark scheme can break. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Violations found so far in one test, by screen. */
class Scanner {
  private readonly found = new Map<string, string[]>();
  private readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async scan(screen: string): Promise<void> {
    this.found.set(screen, await axeViolations(this.page));
    await switchScheme(this.page, 'dark');
    this.found.set(`${screen} (dark)`, await axeViolations(this.page, COLOUR_RULES));
    await switchScheme(this.page, 'light');
  }

  report(): string {
    return [...this.found]
      .filter(([, lines]) => lines.length > 0)
      .map(([screen, lines]) => `${screen}: ${lines.length}\n  ${lines.join('\n  ')}`)
      .join('\n');
  }

  expectNone(): void {
    const report = this.report();
    expect(report, `axe violations by screen:\n${report}`).toBe('');
  }
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    // Reduced motion: a dialog or notification is scanned once shown, not half-faded in.
    test.use({ colorScheme: 'light', viewport: size.viewport, reducedMotion: 'reduce' });
    // A scan takes about a second, several on a loaded 2-core machine, and each screen is
    // scanned twice.
    test.setTimeout(240_000);

    test('signed-out screens have no axe violations', async ({ page }) => {
      const axe = new Scanner(page);
      const screens: [string, string, string][] = [
        ['sign-in', '/sign-in', 'Clients Manager'],
        ['sign-up', '/sign-up', 'Create an account'],
        ['verify', '/verify-email-address', 'Verify your email address'],
        ['forgot', '/forgot-password', 'Reset your password'],
        ['reset', '/reset-password?token=not-checked-until-sent', 'Choose a new password'],
        ['not-found', '/no-such-page', 'Page not found'],
      ];
      for (const [screen, url, heading] of screens) {
        await page.goto(url);
        await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
        await axe.scan(screen);
      }

      // Error states: red text and invalid fields have to meet contrast and be named too.
      await page.goto('/sign-up');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
      await axe.scan('sign-up, fields in error');

      await page.goto('/sign-in');
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Could not sign in' })).toBeVisible();
      await axe.scan('sign-in, refused');
      axe.expectNone();
    });

    test('dashboard screens have no axe violations', async ({ page, staff }) => {
      const axe = new Scanner(page);
      const client = await seedClient(staff, {
        name: 'Contrast Check',
        code: 'AXE',
        description: 'Every part of the panel shown',
        tags: 'eu-west-1, shop',
        startDate: '2026-11-21',
        server: { host: 'axe.example.com', username: 'deploy', password: 'pw-1' },
        domains: ['https://axe.example.com'],
      });
      const panel = page.getByRole('region', { name: 'Selected Client' });

      await page.goto('/');
      await expect(page.getByText('No client selected')).toBeVisible();
      await expect(page.getByRole('link', { name: /Contrast Check/ }).first()).toBeVisible();
      await axe.scan('dashboard, nothing selected');

      await page.goto(`/clients/${client.id}`);
      await expect(panel.getByRole('heading', { name: 'Contrast Check (AXE)' })).toBeVisible();
      await expect(panel.getByRole('list', { name: 'History' })).toBeVisible();
      await axe.scan('dashboard, a client selected');
      // Light buttons darken under the pointer: Reveal's indigo text has to keep 4.5:1 there.
      await panel.getByRole('button', { name: 'Reveal password' }).hover();
      await axe.scan('dashboard, a light button under the pointer');
      // The pointer resting on the selected row, then on the current section in the sidebar
      // (the phone's sidebar is a closed drawer): a selected link's hover keeps its contrast.
      await page.locator('a[aria-current="true"]').first().hover();
      await axe.scan('dashboard, the selected row under the pointer');
      if (size.name === 'desktop') {
        await page.getByRole('link', { name: 'Clients', exact: true }).hover();
        await axe.scan('dashboard, the current section under the pointer');
      }

      // Open, with the first item focused and Delete under the pointer: both highlights are
      // scanned, Delete's red on its own.
      await panel.getByRole('button', { name: 'Client actions' }).click();
      const actionsMenu = page.getByRole('menu');
      await actionsMenu.getByRole('menuitem', { name: 'Delete' }).hover();
      await axe.scan('client actions menu');
      await page.keyboard.press('Escape');
      await expect(actionsMenu).toHaveCount(0);

      await page
        .getByRole('checkbox', { name: /^Select Contrast Check/ })
        .first()
        .click();
      const toolbar = page.getByRole('toolbar', { name: 'Selected clients' });
      await expect(toolbar).toBeVisible();
      await axe.scan('selection toolbar');
      // Enabled once the bulk actions' code is in: a disabled button's contrast is not checked.
      await expect(toolbar.getByRole('button', { name: 'Delete' })).toBeEnabled();
      await toolbar.getByRole('button', { name: 'Delete' }).hover();
      await axe.scan('selection toolbar, red Delete under the pointer');
      await toolbar.getByRole('button', { name: 'Add tag' }).click();
      const tagDialog = page.getByRole('dialog', { name: /^Add a tag to/ });
      await tagDialog.getByLabel('Tag to add').fill('bad\u0003tag');
      await tagDialog.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(tagDialog.getByLabel('Tag to add')).toHaveAttribute('aria-invalid', 'true');
      await axe.scan('bulk add tag, refused');
      await tagDialog.getByRole('button', { name: 'Cancel' }).click();
      await toolbar.getByRole('button', { name: 'Delete' }).click();
      const deleteDialog = page.getByRole('dialog', { name: /^Delete 1 client/ });
      await expect(deleteDialog).toBeVisible();
      await axe.scan('bulk delete confirm');
      await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
      // A phone shows the list whatever was chosen.
      if (size.name === 'desktop') {
        const view = page.getByRole('radiogroup', { name: 'View' });
        await view.getByText('Table', { exact: true }).click();
        await expect(page.getByRole('table', { name: 'Clients' })).toBeVisible();
        await axe.scan('table view');
        await view.getByText('List', { exact: true }).click();
        await expect(page.getByRole('navigation', { name: 'Clients' })).toBeVisible();
      }
      await page.getByRole('button', { name: 'Clear selection' }).click();

      await page.getByRole('button', { name: 'Add client' }).click();
      await expect(page.getByLabel('Name', { exact: true })).toBeVisible();
      await axe.scan('add form');
      await page.getByLabel('Port', { exact: true }).fill('70000');
      await page.getByRole('textbox', { name: 'Domain 1' }).fill('javascript:alert(1)');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByLabel('Port', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await axe.scan('add form, fields in error');
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/clients/${client.id}`);
      await panel.getByRole('button', { name: 'Client actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Contrast Check');
      await axe.scan('edit form');

      await page.getByRole('button', { name: 'Save' }).click();
      const saved = page.getByText('Client Saved!');
      // A hovered notification stays until the scan is done.
      await saved.hover();
      await axe.scan('notification showing');

      await panel.getByRole('button', { name: 'Client actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete client' })).toBeVisible();
      await axe.scan('confirm dialog');
      await page.getByRole('button', { name: 'Cancel' }).click();

      axe.expectNone();
    });

    test('servers and credentials screens have no axe violations', async ({ page, staff }) => {
      const axe = new Scanner(page);
      const client = await seedClient(staff, {
        name: 'Servers Check',
        code: 'AXS',
        server: { host: 'prod.axs.example', username: 'deploy' },
      });
      const key = await staff.json<{ id: string }>('POST', '/api/credentials', {
        name: 'Axe key',
        kind: 'ssh-key',
        generate: 'ed25519',
      });
      const server = await staff.json<{ id: string }>('POST', '/api/servers', {
        clientId: client.id,
        label: 'staging',
        host: 'staging.axs.example',
        username: 'ops',
        credentialId: key.body.id,
      });

      await page.goto('/servers');
      await expect(page.getByRole('link', { name: 'staging' }).first()).toBeVisible();
      await axe.scan('servers');
      await page.getByRole('button', { name: 'Add server' }).click();
      const add = page.getByRole('dialog', { name: 'Add server' });
      await expect(add.getByLabel('Label', { exact: true })).toBeVisible();
      await axe.scan('add server');
      await add.getByLabel('Host', { exact: true }).fill('-bad host');
      await add.getByRole('button', { name: 'Save' }).click();
      await expect(add.getByLabel('Host', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await axe.scan('add server, fields in error');
      await add.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/servers/${server.body.id}`);
      await expect(page.getByRole('heading', { name: 'staging', level: 1 })).toBeVisible();
      await expect(page.getByRole('list', { name: 'History' })).toBeVisible();
      await axe.scan('a server');

      // The panel's servers load their code when first shown: held back, as on a slow link,
      // so the placeholder is scanned too.
      const release = await holdBack(page, /\/assets\/client-servers-[^/]+\.js$/);
      await page.goto(`/clients/${client.id}`);
      await expect(page.getByLabel('Loading servers')).toBeVisible();
      await axe.scan('panel, its servers loading');
      release();
      await expect(
        page.getByRole('region', { name: 'Selected Client' }).getByLabel('Commands for server'),
      ).toBeVisible();
      await axe.scan('panel with other servers');

      await page.goto('/credentials');
      await expect(page.getByRole('link', { name: 'Axe key' }).first()).toBeVisible();
      await axe.scan('credentials');
      await page.getByRole('button', { name: 'New credential' }).click();
      const create = page.getByRole('dialog', { name: 'New credential' });
      await expect(create.getByLabel('Key type')).toBeVisible();
      await axe.scan('new credential, generate');
      await create.getByLabel('Paste a private key').check();
      await create.getByRole('button', { name: 'Save' }).click();
      await expect(create.getByLabel('Private key', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await axe.scan('new credential, paste, in error');
      await create.getByText('Token', { exact: true }).click();
      await expect(create.getByLabel('Secret', { exact: true })).toBeVisible();
      await axe.scan('new credential, token');
      await create.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/credentials/${key.body.id}`);
      await page.getByRole('button', { name: 'Reveal secret' }).click();
      await expect(page.getByText(/BEGIN OPENSSH PRIVATE KEY/)).toBeVisible();
      // The pointer off the button just clicked: its hover colour is not what is scanned here.
      await page.mouse.move(0, 0);
      await axe.scan('a credential, secret revealed');
      await page.getByRole('button', { name: 'Rotate' }).click();
      await expect(page.getByRole('dialog', { name: 'Rotate the secret' })).toBeVisible();
      await axe.scan('rotate');

      axe.expectNone();
    });

    test('apps screens have no axe violations', async ({ page, staff }) => {
      test.setTimeout(300_000);
      const axe = new Scanner(page);
      // A finished run whose log has standard output, standard error and the tool's own lines.
      const { sshd, app, client } = await appOnSshd(
        staff,
        `AXA${size.name === 'phone' ? 'P' : 'D'}`,
        'echo building; echo a warning >&2; echo done',
      );
      await withSshd(sshd, async () => {
        await page.goto(`/apps/${app.id}`);
        await page.getByRole('button', { name: 'Deploy', exact: true }).click();
        const confirm = page.getByRole('dialog', { name: /^Deploy / });
        await expect(confirm.getByText(app.effectiveCommand)).toBeVisible();
        await axe.scan('deploy confirm');
        await confirm.getByRole('button', { name: 'Deploy' }).click();
        await expect(runState(page)).toHaveText(/^Succeeded/, { timeout: 30_000 });
      });
      await expect(
        outputLine(page.getByRole('log', { name: /^Output of the deploy/ }), 'a warning'),
      ).toBeVisible();
      await page.mouse.move(0, 0);
      await axe.scan('an app with a finished run');
      await page.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit app' });
      await edit.getByLabel('Name', { exact: true }).fill('');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit.getByLabel('Name', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await axe.scan('edit app, fields in error');
      await edit.getByRole('button', { name: 'Cancel' }).click();

      await page.goto('/apps');
      await expect(page.getByRole('link', { name: app.name }).first()).toBeVisible();
      await axe.scan('apps');
      await page.getByRole('button', { name: 'Add app' }).click();
      const add = page.getByRole('dialog', { name: 'Add app' });
      await expect(add.getByLabel('Name', { exact: true })).toBeVisible();
      await axe.scan('add app');
      await add.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/clients/${client.id}`);
      await expect(
        page.getByRole('region', { name: 'Selected Client' }).getByRole('link', { name: app.name }),
      ).toBeVisible();
      await axe.scan('panel with apps');

      axe.expectNone();
    });

    test('issues screens have no axe violations', async ({ page, staff }) => {
      const axe = new Scanner(page);
      const client = await seedClient(staff, {
        name: 'Issues Check',
        code: 'AXI',
        server: { host: 'prod.axi.example', username: 'deploy' },
      });
      const problem = await staff.json<{ id: string }>('POST', '/api/issues', {
        clientId: client.id,
        kind: 'problem',
        title: 'Axe problem',
        text: 'Line one\nLine two',
      });
      await staff.json('POST', '/api/issues', {
        clientId: client.id,
        kind: 'note',
        title: 'Axe note',
      });
      await staff.json('POST', `/api/issues/${problem.body.id}/comments`, { text: 'A comment' });

      await page.goto('/issues');
      await expect(page.getByRole('link', { name: 'Axe problem' }).first()).toBeVisible();
      await axe.scan('issues');
      await page.getByRole('button', { name: 'New issue' }).click();
      const add = page.getByRole('dialog', { name: 'New issue' });
      await expect(add.getByLabel('Title', { exact: true })).toBeVisible();
      await axe.scan('new issue');
      await add.getByRole('button', { name: 'Save' }).click();
      await expect(add.getByLabel('Title', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await axe.scan('new issue, fields in error');
      await add.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/issues/${problem.body.id}`);
      await expect(page.getByRole('list', { name: 'Comments' })).toContainText('A comment');
      await axe.scan('an issue with comments');
      await page.getByRole('button', { name: 'Add comment' }).click();
      await expect(page.getByLabel('Comment', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await axe.scan('an issue, empty comment refused');
      await page.getByRole('button', { name: 'Edit' }).click();
      await expect(
        page.getByRole('dialog', { name: 'Edit issue' }).getByLabel('Title', { exact: true }),
      ).toHaveValue('Axe problem');
      await axe.scan('edit issue');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Resolve' }).click();
      await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
      await page.mouse.move(0, 0);
      await axe.scan('a resolved issue');

      await page.goto(`/clients/${client.id}`);
      await expect(
        page
          .getByRole('region', { name: 'Selected Client' })
          .getByRole('list', { name: 'Open issues' }),
      ).toContainText('Axe note');
      await axe.scan('panel with open issues');

      axe.expectNone();
    });

    test('settings, the import dialog and people have no axe violations', async ({
      page,
      server,
      staff,
    }) => {
      // An administrator: the People screen is theirs.
      await setAccess(server, staff, { role: 'admin' });
      const axe = new Scanner(page);
      await page.goto('/settings');
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
      await axe.scan('settings');
      await page.getByLabel('Include passwords').check();
      await expect(
        page.getByText('The file will hold every server password in clear'),
      ).toBeVisible();
      await axe.scan('settings, export with passwords');

      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Import from a file' }).click();
      await (
        await chooser
      ).setFiles({
        name: 'clients.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ clients: {} })),
      });
      const dialog = page.getByRole('dialog', { name: 'Import clients.json' });
      await expect(dialog.getByRole('table', { name: 'Import summary' })).toBeVisible();
      await axe.scan('import dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);

      await page.goto('/people');
      await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();
      await expect(
        page.getByText('Nothing recorded.').or(page.getByRole('list', { name: 'Audit trail' })),
      ).toBeVisible();
      await axe.scan('people');
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      const invite = page.getByRole('dialog', { name: 'Invite someone' });
      await expect(invite).toBeVisible();
      await axe.scan('people, invite');
      // An administrator's invitation: the tags field is disabled, with its reason.
      await invite.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Administrator' }).click();
      await expect(invite.getByRole('combobox', { name: 'Limit to tags' })).toBeDisabled();
      await axe.scan('people, invite an administrator');
      await page.keyboard.press('Escape');
      const me = await staff.json<{ email: string }>('GET', '/api/me');
      await page.getByRole('button', { name: `Actions for ${me.body.email}` }).click();
      const personMenu = page.getByRole('menu');
      await personMenu.getByRole('menuitem', { name: 'Sign out everywhere' }).hover();
      await axe.scan("people, a person's actions");
      await page.keyboard.press('Escape');
      await expect(personMenu).toHaveCount(0);

      axe.expectNone();
    });
  });
}
