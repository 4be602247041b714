import { test, expect } from './fixtures.ts';
import { uniqueEmail } from '../src/server/testing/test-server.ts';

test('the forgot-password screen says the link was sent once', async ({ page, server }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(uniqueEmail('forgot'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const sent = page.getByText('Password reset email sent, check your inbox.');
  await expect(sent.first()).toBeVisible();
  // A notification saying it again is drawn after the form's message: Mantine's list renders
  // a new one on a zero timeout, then its transition starts on the next frames. Count once
  // that much has run, not after a guessed time.
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        const frames = (n: number) =>
          n === 0 ? resolve(null) : requestAnimationFrame(() => frames(n - 1));
        setTimeout(() => requestAnimationFrame(() => setTimeout(() => frames(3), 0)), 0);
      }),
  );
  // Counted once, not retried: a notification closes by itself after a few seconds.
  expect(await sent.count()).toBe(1);
  void server;
});

test('a signed-in person opening sign-up or sign-in goes to the app', async ({ page, staff }) => {
  void staff;
  for (const screen of ['/sign-up', '/sign-in']) {
    await page.goto(screen);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Clients', exact: true })).toBeVisible();
  }
});
