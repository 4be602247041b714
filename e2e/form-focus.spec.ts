import type { Locator, Page } from '@playwright/test';
import { setAccess } from '../src/server/testing/access.ts';
import { uniqueEmail } from '../src/server/testing/test-server.ts';
import { test, expect, seedClient } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { saveScreen } from './screens.ts';

/**
 * A form's own checks failing puts focus on the first field in error, as a refused save does
 * (docs/accessibility.md, "Fields and their messages"): a screen reader then reads the field
 * and its message, where focus left on the submit button says nothing. `refusal`: the server's
 * message the field is marked with, for a form its own checks let through.
 */
async function expectFocusOnError(
  submit: Locator,
  field: Locator,
  refusal?: RegExp,
): Promise<void> {
  // Enter on the button, as a keyboard user sends the form.
  await submit.press('Enter');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  if (refusal !== undefined) await expect(field).toHaveAccessibleDescription(refusal);
  // Soft: one run names every form that leaves focus behind, not only the first.
  await expect.soft(field).toBeFocused();
}

const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

/** At both sizes: a screenshot of the field in error, focused, and an axe scan there. */
async function checkAtBothSizes(page: Page, field: Locator, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await field.scrollIntoViewIfNeeded();
    await expect(field).toBeFocused();
    await saveScreen(page, `form-focus/${name}-${size.width}`);
    await expectNoAxeViolations(page, `${name} at ${size.width}×${size.height}`);
  }
}

test('signed-out forms put focus on the first field in error', async ({ page, server, staff }) => {
  // An address with a pending invitation, which the server refuses to sign up without its link;
  // then the page is signed out.
  await setAccess(server, staff, { role: 'admin' });
  const invited = uniqueEmail('pending');
  const invitation = await staff.json<{ id: string }>('POST', '/api/people/invitations', {
    email: invited,
    role: 'viewer',
    tags: null,
  });
  expect(invitation.status).toBe(201);
  await page.context().clearCookies();

  await page.goto('/sign-in');
  await expectFocusOnError(
    page.getByRole('button', { name: 'Sign in', exact: true }),
    page.getByLabel('Email'),
  );

  // Name is optional: Email is the first field in error.
  await page.goto('/sign-up');
  const signUpEmail = page.getByLabel('Email');
  await expectFocusOnError(page.getByRole('button', { name: 'Sign up' }), signUpEmail);
  await checkAtBothSizes(page, signUpEmail, 'sign-up');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpEmail.fill(invited);
  await page.getByLabel('Password').fill('typed without the link');
  await expectFocusOnError(
    page.getByRole('button', { name: 'Sign up' }),
    signUpEmail,
    /This address has an invitation/,
  );
  // The worker's server is shared: its People page is no place for this test's invitation.
  const revoked = await staff.request('DELETE', `/api/people/invitations/${invitation.body.id}`);
  expect(revoked.status).toBe(204);

  await page.goto('/forgot-password');
  await expectFocusOnError(
    page.getByRole('button', { name: 'Send reset link' }),
    page.getByLabel('Email'),
  );

  // The form is shown for any token; the server judges it only when it is sent.
  await page.goto('/reset-password?token=not-checked-yet');
  await expectFocusOnError(
    page.getByRole('button', { name: 'Save new password' }),
    page.getByLabel('New password'),
  );

  await page.goto('/confirm-email?token=not-checked-yet');
  await expectFocusOnError(
    page.getByRole('button', { name: 'Confirm and sign in' }),
    page.getByLabel('Password'),
  );
});

test('settings forms put focus on the first field in error', async ({ page, staff }) => {
  void staff; // signed in
  await page.goto('/settings');

  const password = page.getByRole('region', { name: 'Password', exact: true });
  const current = password.getByLabel('Current password');
  const changePassword = password.getByRole('button', { name: 'Change password' });
  await expectFocusOnError(changePassword, current);
  await checkAtBothSizes(page, current, 'settings-password');
  await page.setViewportSize({ width: 1440, height: 900 });
  // The server's refusals too: a wrong current password…
  await current.fill('not the password');
  await password.getByLabel('New password').fill('a new long password');
  await expectFocusOnError(changePassword, current, /That is not your current password/);
  await checkAtBothSizes(page, current, 'settings-password-refused');
  await page.setViewportSize({ width: 1440, height: 900 });

  await expectFocusOnError(
    page.getByRole('button', { name: 'Save token' }),
    page.getByLabel('Access token', { exact: true }),
  );

  const tokens = page.getByRole('region', { name: 'API tokens' });
  await expectFocusOnError(
    tokens.getByRole('button', { name: 'Create token' }),
    tokens.getByLabel('Token name'),
  );

  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expectFocusOnError(
    passkeys.getByRole('button', { name: 'Add a passkey' }),
    passkeys.getByLabel('Passkey name'),
  );

  // Setting up two-factor sign-in replaces its button by the password step: focus goes there,
  // and back to the button on Cancel.
  const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' });
  const setUp = twoFactor.getByRole('button', { name: 'Set up two-factor sign-in' });
  await setUp.press('Enter');
  const twoFactorPassword = twoFactor.getByLabel('Current password');
  await expect.soft(twoFactorPassword).toBeFocused();
  const proceed = twoFactor.getByRole('button', { name: 'Continue' });
  await expectFocusOnError(proceed, twoFactorPassword);
  // …a wrong password, and a wrong first code from the app.
  await twoFactorPassword.fill('not the password');
  await expectFocusOnError(proceed, twoFactorPassword, /invalid password/i);
  await twoFactorPassword.fill('correct horse battery');
  await proceed.press('Enter');
  const code = twoFactor.getByLabel('Code from the app');
  await code.fill('000000');
  await expectFocusOnError(
    twoFactor.getByRole('button', { name: 'Turn on' }),
    code,
    /That code is not right/,
  );
  await twoFactor.getByRole('button', { name: 'Cancel' }).press('Enter');
  await expect.soft(setUp).toBeFocused();
});

test('an issue comment sent empty puts focus on the comment', async ({ page, staff }) => {
  const client = await seedClient(staff, { name: 'Focus Co', code: 'FOC' });
  const issue = await staff.json<{ id: string }>('POST', '/api/issues', {
    clientId: client.id,
    title: 'Focus issue',
  });
  expect(issue.status).toBe(201);
  await page.goto(`/issues/${issue.body.id}`);
  const comment = page.getByRole('form', { name: 'Add a comment' });
  await expectFocusOnError(
    comment.getByRole('button', { name: 'Add comment' }),
    comment.getByLabel('Comment'),
  );
});
