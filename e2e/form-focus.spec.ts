import type { Locator, Page } from '@playwright/test';
import { test, expect, seedClient } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { saveScreen } from './screens.ts';

/**
 * A form's own checks failing puts focus on the first field in error, as a refused save does
 * (docs/accessibility.md, "Fields and their messages"): a screen reader then reads the field
 * and its message, where focus left on the submit button says nothing.
 */
async function expectFocusOnError(submit: Locator, field: Locator): Promise<void> {
  // Enter on the button, as a keyboard user sends the form with its fields left empty.
  await submit.press('Enter');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
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

test('signed-out forms put focus on the first field in error', async ({ page }) => {
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
  await expectFocusOnError(password.getByRole('button', { name: 'Change password' }), current);
  await checkAtBothSizes(page, current, 'settings-password');
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
  await expectFocusOnError(twoFactor.getByRole('button', { name: 'Continue' }), twoFactorPassword);
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
