import {
  test,
  expect,
  confirmThroughUi,
  holdBack,
  seedClient,
  signInContext,
  signUpThroughUi,
} from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { saveScreen } from './screens.ts';
import { CONFIRM_EMAIL_LINK_INVALID, CONFIRM_EMAIL_WRONG_PASSWORD } from '../src/shared/account.ts';
import { linkIn } from '../src/server/testing/mail-catcher.ts';
import { signUpVerified, uniqueEmail } from '../src/server/testing/test-server.ts';
import { setAccess } from '../src/server/testing/access.ts';

test('sign up, verify by the mailed link, land on the dashboard, sign out and back in', async ({
  page,
  server,
}) => {
  const { email, password } = await signUpThroughUi(page, server, { name: 'Margaret' });
  await expect(page.getByText('Margaret', { exact: true })).toBeVisible();
  await expect(page.getByText('No client selected')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Clients Manager' })).toBeVisible();
  // Signed out means signed out: the app sends us back.
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${server.url}/`);
  await expect(page.getByText('Margaret', { exact: true })).toBeVisible();
  // A signed-in user opening the sign-in screen goes to '/'.
  await page.goto('/sign-in');
  await expect(page).toHaveURL(`${server.url}/`);
});

test('sign-in screen: title, form and links; no Google button until Google is configured', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Clients Manager' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
    'href',
    '/sign-up',
  );
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await expect(page.getByRole('button', { name: 'Log in with Google' })).toHaveCount(0);
});

test('an unverified user is sent to verify and can resend the mail', async ({ page, server }) => {
  const email = uniqueEmail('late');
  await page.goto('/sign-up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long pass phrase');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByText(`We sent a verification link to ${email}`)).toBeVisible();

  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long pass phrase');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();

  const before = server.mail.mails.length;
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(page.getByText('Verification email sent.')).toBeVisible();
  const mail = await server.mail.waitFor(email, 'Verify your email', before);
  await confirmThroughUi(page, linkIn(mail), 'a long pass phrase');
  await expect(page).toHaveURL(`${server.url}/`);
});

test('a sign-up link opened by someone who did not sign up confirms nothing', async ({
  page,
  server,
}) => {
  // A stranger signs up a colleague's address; the colleague opens the mail.
  const email = uniqueEmail('unasked');
  const before = server.mail.mails.length;
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email, password: 'chosen by a stranger', name: 'Stranger' }),
  });
  expect(signUp.status).toBe(200);
  const mail = await server.mail.waitFor(email, 'Verify your email', before);
  await page.goto(linkIn(mail));
  await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
  await page.getByLabel('Password').fill('the colleague guesses');
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
  await expect(page.getByText(CONFIRM_EMAIL_WRONG_PASSWORD)).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  for (const size of [
    { name: 'desktop', width: 1366, height: 768 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await saveScreen(page, `auth/confirm-email-wrong-password-${size.name}`);
    await expectNoAxeViolations(page, `confirm email at ${size.name}`);
  }
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);

  // Their way back: sign up with the address themselves.
  await page.goto(linkIn(mail));
  await page.getByRole('link', { name: 'Sign up with it yourself' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);

  // A link that is no longer good (expired, or its sign-up made anew since) says so.
  await page.goto('/confirm-email?token=no-longer-good');
  await page.getByLabel('Password').fill('any password');
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(CONFIRM_EMAIL_LINK_INVALID);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  for (const size of [
    { name: 'desktop', width: 1366, height: 768 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await saveScreen(page, `auth/confirm-email-link-invalid-${size.name}`);
    await expectNoAxeViolations(page, `confirm email, link invalid, at ${size.name}`);
  }
});

test('forgot password: mail, reset page, the new password works', async ({ page, server }) => {
  const { email } = await signUpThroughUi(page, server);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  const before = server.mail.mails.length;
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('Password reset email sent, check your inbox.').first(),
  ).toBeVisible();

  const mail = await server.mail.waitFor(email, 'Reset your Clients Manager password', before);
  await page.goto(linkIn(mail));
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password').fill('a brand new phrase');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a brand new phrase');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${server.url}/`);
});

test('opened at another address than PUBLIC_URL, sign-in says which address to open', async ({
  page,
  server,
}) => {
  // The test server's PUBLIC_URL names 127.0.0.1; the same server is reached as localhost.
  const elsewhere = server.url.replace('127.0.0.1', 'localhost');
  await page.goto(`${elsewhere}/sign-in`);
  await page.getByLabel('Email').fill(uniqueEmail());
  await page.getByLabel('Password').fill('a long pass phrase');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(
    page.getByText(
      `this page was opened at ${elsewhere}, but Clients Manager answers at ${server.url} (PUBLIC_URL). Open ${server.url} instead.`,
    ),
  ).toBeVisible();
});

test('signed out elsewhere, the tab forgets what it read: the next person never sees it', async ({
  page,
  server,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Only For Grace', code: 'OFG', tags: ['grace'] });
  const next = await signUpVerified(server, { name: 'Next Person', email: uniqueEmail('next') });
  await setAccess(server, next, { role: 'editor', tags: ['elsewhere'] });
  await page.clock.install();
  await page.goto(`/clients/${client.id}`);
  const heading = page.getByRole('heading', { name: 'Only For Grace (OFG)' });
  await expect(heading).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Servers' })
    .click();
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();

  // Signed out from another device: the tab's stream ends, and it goes to sign-in.
  expect((await staff.request('POST', '/api/auth/sign-out')).status).toBe(200);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();

  // The next person signs in in another tab of this browser; this one, shown again a minute
  // later, finds the new session and goes back to Servers, then Back to the client that person
  // may not see. Their read of it is held, so anything shown meanwhile came from the cache.
  await signInContext(page.context(), next);
  await page.clock.fastForward(61_000);
  await page.evaluate(() =>
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true })),
  );
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
  await expect(page.getByText('Next Person')).toBeVisible();
  const release = await holdBack(page, `**/api/clients/${client.id}`);
  const read = page.waitForRequest((request) =>
    request.url().endsWith(`/api/clients/${client.id}`),
  );
  await page.goBack();
  await read;
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}`));
  await expect(heading).toHaveCount(0);
  release();
  await expect(page.getByText('Client not found')).toBeVisible();
  await expect(heading).toHaveCount(0);
  await saveScreen(page, 'auth/next-person-not-found');
});
