import { expect, it } from 'vitest';
import { serveThisFile } from '#server/testing/file-server.ts';
import { Session, uniqueEmail } from '#server/testing/test-server.ts';
import { MAIL_WINDOW_MS, MAILS_PER_ADDRESS, mayMailAddress } from './mail-per-address.ts';

/**
 * The sign-in screens' mails are limited per address, not only per client address: each
 * sign-in of an unconfirmed account mails its link again, so one machine within the per-client
 * limits could otherwise have the server mail one person thousands of times a day.
 */
const t = serveThisFile({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });

function mailsTo(email: string): number {
  return t.server.mail.mails.filter((mail) => mail.to.includes(email)).length;
}

it('sends one address at most its share of mails in the window, and others theirs', async () => {
  const email = uniqueEmail('flooded');
  const session = new Session(t.server);
  const body = { email, password: 'long enough pw', name: '' };
  expect((await session.request('POST', '/api/auth/sign-up/email', body)).status).toBe(200);
  // Every sign-in of the unconfirmed account asks for the mail again; each is answered alike.
  for (let attempt = 0; attempt < MAILS_PER_ADDRESS + 2; attempt += 1) {
    const signIn = await session.json<{ code: string }>('POST', '/api/auth/sign-in/email', body);
    expect(signIn.body.code).toBe('EMAIL_NOT_VERIFIED');
  }
  expect(mailsTo(email)).toBe(MAILS_PER_ADDRESS);

  const other = uniqueEmail('other');
  const before = t.server.mail.mails.length;
  const signUp = await new Session(t.server).request('POST', '/api/auth/sign-up/email', {
    ...body,
    email: other,
  });
  expect(signUp.status).toBe(200);
  await t.server.mail.waitFor(other, 'Verify your email', before);
  expect(mailsTo(other)).toBe(1);
});

it('counts an address whatever its case, and starts again once the window has passed', async () => {
  const db = t.server.app.parts.db.kysely;
  const email = uniqueEmail('window');
  const start = Date.now();
  const answers: boolean[] = [];
  for (let n = 0; n <= MAILS_PER_ADDRESS; n += 1) {
    answers.push(await mayMailAddress(db, n % 2 ? email.toUpperCase() : email, start + n));
  }
  expect(answers).toEqual([...Array<boolean>(MAILS_PER_ADDRESS).fill(true), false]);
  expect(await mayMailAddress(db, email, start + MAIL_WINDOW_MS - 1)).toBe(false);
  expect(await mayMailAddress(db, email, start + MAIL_WINDOW_MS)).toBe(true);
  expect(await mayMailAddress(db, email, start + MAIL_WINDOW_MS + 1)).toBe(true);
});
