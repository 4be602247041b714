import type { Browser, Locator, Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { test, expect, signInContext, WEB_APP } from './fixtures.ts';
import {
  serverPort,
  signUpVerified,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../src/server/testing/test-server.ts';
import { ageSignIns, enrolTotp } from '../src/server/testing/second-factor-steps.ts';
import { USED_SECOND_FACTOR_MESSAGE } from '../src/shared/api-error.ts';
import { PASSKEY_NEEDS_RECENT_SIGN_IN } from '../src/shared/second-factors.ts';
import { expectNoAxeViolations, switchScheme } from './axe.ts';
import { saveScreen } from './screens.ts';

/*
 * Second factors through the screens: authenticator codes (computed here from the secret the
 * screen shows), backup codes, a passkey made and used by Chromium's virtual authenticator,
 * and REQUIRE_2FA leading a new person through the set-up.
 */

const PASSWORD = 'correct horse battery';
const SIZES = [
  { name: 'desktop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * An axe scan (WCAG 2.1 A and AA) at both sizes, in light and dark mode, as
 * accessibility.spec.ts scans the other screens, and a screenshot at each size in light mode
 * (of the window with `part` scrolled into it, or else of the whole page) when E2E_SCREENS asks.
 */
async function look(page: Page, name: string, part?: Locator): Promise<void> {
  const before = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await switchScheme(page, colorScheme);
      await part?.scrollIntoViewIfNeeded();
      if (colorScheme === 'light') {
        await saveScreen(page, `second-factors/${name}-${size.name}`, { fullPage: !part });
      }
      await expectNoAxeViolations(page, `${name} at ${size.name}, ${colorScheme}`);
    }
  }
  await switchScheme(page, 'light');
  if (before) await page.setViewportSize(before);
}

/** Turns on authenticator codes in Settings; returns the app's TOTP and the backup codes. */
async function setUpCodes(page: Page, lookAtSteps = false) {
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  return confirmCodes(page, section, lookAtSteps);
}

async function confirmCodes(
  page: Page,
  within: ReturnType<Page['getByRole']>,
  lookAtSteps: boolean,
): Promise<{ totp: OTPAuth.TOTP; backupCodes: string[] }> {
  await expect(within.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await within.locator('code').innerText()).trim();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  if (lookAtSteps) await look(page, 'enrol-qr-and-secret', within);

  await within
    .getByLabel('Code from the app')
    .fill('000000' === totp.generate() ? '111111' : '000000');
  await within.getByRole('button', { name: 'Turn on' }).click();
  await expect(within.getByText('That code is not right')).toBeVisible();

  await within.getByLabel('Code from the app').fill(totp.generate());
  await within.getByRole('button', { name: 'Turn on' }).click();
  const list = within.getByRole('list', { name: 'Backup codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const backupCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  if (lookAtSteps) await look(page, 'enrol-backup-codes', within);

  const done = within.getByRole('button', { name: 'Done' });
  await expect(done).toBeDisabled();
  await within.getByLabel('I have saved them').check();
  await done.click();
  return { totp, backupCodes };
}

/** A fresh browser at the sign-in screen, past the password. */
async function passwordStep(browser: Browser, server: TestServer, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  return { context, page };
}

test('authenticator codes are set up in Settings: QR code, secret, a first code, backup codes', async ({
  page,
  // Signs a person in (the password is PASSWORD).
  staff: _staff,
}) => {
  // Two screens scanned and photographed at two sizes, each scanned in two colour schemes.
  test.setTimeout(180_000);
  await page.goto('/settings');
  await setUpCodes(page, true);
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Turn off two-factor sign-in' })).toBeVisible();
});

test('sign-in asks for the code; each code works once', async ({ staff, browser, server }) => {
  test.setTimeout(180_000);
  const email = (await staff.json<{ email: string }>('GET', '/api/me')).body.email;
  const { app, backupCodes } = await enrolTotp(staff, PASSWORD);

  // A code from the app: the one that turned codes on is refused, the next one works.
  // Straight away: the server knows the code as used only while its step is in the window.
  const first = await passwordStep(browser, server, email);
  const code = first.page.getByLabel('Authentication code');
  await code.fill(app.usedCode);
  await first.page.getByRole('button', { name: 'Verify' }).click();
  await expect(first.page.getByText(USED_SECOND_FACTOR_MESSAGE)).toBeVisible();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await look(first.page, 'sign-in-used-code');
  await code.fill(await app.nextCode());
  await first.page.getByRole('button', { name: 'Verify' }).click();
  await expect(first.page).toHaveURL(`${server.url}/`);
  await first.context.close();

  // A backup code: once.
  const [backup] = backupCodes;
  const second = await passwordStep(browser, server, email);
  await look(second.page, 'sign-in-code-step');
  await second.page.getByRole('button', { name: 'Use a backup code' }).click();
  await second.page.getByLabel('Backup code').fill(backup!);
  await second.page.getByRole('button', { name: 'Verify' }).click();
  await expect(second.page).toHaveURL(`${server.url}/`);
  await second.context.close();

  const third = await passwordStep(browser, server, email);
  await third.page.getByRole('button', { name: 'Use a backup code' }).click();
  await third.page.getByLabel('Backup code').fill(backup!);
  await third.page.getByRole('button', { name: 'Verify' }).click();
  await expect(third.page.getByText('That code is not right')).toBeVisible();
  await expect(third.page.getByLabel('Backup code')).toHaveAttribute('aria-invalid', 'true');
  await look(third.page, 'sign-in-wrong-backup-code');
  await third.context.close();
});

test.describe('passkeys', () => {
  // WebAuthn refuses an IP address as the relying party: this server is reached as localhost.
  let server: TestServer;
  let url: string;
  test.beforeAll(async () => {
    const port = await serverPort();
    url = `http://localhost:${port}`;
    server = await startTestServer(
      { PUBLIC_URL: url, AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      { clientDir: WEB_APP, port },
    );
  });
  test.afterAll(async () => server?.close());

  test('a passkey is added, renamed, signs in, and is removed', async ({ page }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('pk');
    const staff = await signUpVerified({ url, mail: server.mail }, { email });
    await signInContext(page.context(), staff);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    await page.goto(`${url}/settings`);
    const section = page.getByRole('region', { name: 'Passkeys' });
    await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
    await section.getByLabel('Passkey name').fill('Test key');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(section.getByRole('cell', { name: 'Test key', exact: true })).toBeVisible();

    await section.getByRole('button', { name: 'Rename Test key' }).click();
    await section.getByLabel('New name').fill('Work laptop');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(section.getByRole('cell', { name: 'Work laptop', exact: true })).toBeVisible();
    await look(page, 'settings-passkeys', section);

    // The server's first person is its administrator: the audit trail shows the new passkey.
    await page.goto(`${url}/people`);
    const trail = page.getByRole('list', { name: 'Audit trail' });
    await expect(trail.getByText('added a passkey')).toBeVisible();
    await look(page, 'audit-trail-passkey-added', trail);
    await page.goto(`${url}/settings`);

    // Signed out, then back in with the passkey alone.
    await page.context().clearCookies();
    await page.goto(`${url}/sign-in`);
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    await look(page, 'sign-in-with-passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(`${url}/`);

    await page.goto(`${url}/settings`);
    await section.getByRole('button', { name: 'Remove Work laptop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(section.getByText('You have no passkeys yet.')).toBeVisible();

    // A sign-in more than 10 minutes old adds none: the field says what to do.
    const { kysely } = server.app.parts.db;
    const user = await kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await ageSignIns(server.app.parts.db, user.id, 11);
    await section.getByLabel('Passkey name').fill('Later key');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(section.getByText(PASSKEY_NEEDS_RECENT_SIGN_IN)).toBeVisible();
    await expect(section.getByLabel('Passkey name')).toHaveAttribute('aria-invalid', 'true');
    await look(page, 'settings-passkey-needs-sign-in', section);
    await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  });
});

test.describe('REQUIRE_2FA=true', () => {
  let server: TestServer;
  test.beforeAll(async () => {
    server = await startTestServer(
      { REQUIRE_2FA: 'true', AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      { clientDir: WEB_APP },
    );
  });
  test.afterAll(async () => server?.close());

  test('leads a new person through the set-up before the app', async ({ page }) => {
    test.setTimeout(120_000);
    const staff = await signUpVerified(server, { email: uniqueEmail('req') });
    await signInContext(page.context(), staff);

    await page.goto(`${server.url}/settings`);
    await expect(page).toHaveURL(`${server.url}/set-up-second-factor`);
    const heading = page.getByRole('heading', { name: 'Set up two-factor sign-in' });
    await expect(heading).toBeVisible();
    await look(page, 'required-set-up');

    const main = page.getByRole('main');
    await main.getByLabel('Current password').fill(PASSWORD);
    await main.getByRole('button', { name: 'Continue' }).click();
    await confirmCodes(page, main, false);
    await expect(page).toHaveURL(`${server.url}/`);
    await page.goto(`${server.url}/settings`);
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  });
});
