import { expect, it } from 'vitest';
import type { Invitation } from '#shared/people-admin.ts';
import { Session, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { linkIn } from '#server/testing/mail-catcher.ts';

/**
 * An invitation's link signs up whoever holds it with the invited role, admin included: the
 * request log, at debug level and in development's, must not hold it.
 */
const logLines: string[] = [];
const t = serveThisFile({
  env: { LOG_LEVEL: 'debug' },
  start: { logStream: { write: (line) => logLines.push(line) } },
  staff: { admin: { name: 'Ada Admin', role: 'admin' } },
});

it('keeps the invitation token out of the log, from the link to the sign-up', async () => {
  const email = uniqueEmail('invited');
  const before = t.server.mail.mails.length;
  const created = await t.staff.admin.json<Invitation>('POST', '/api/people/invitations', {
    email,
    role: 'admin',
    tags: null,
  });
  expect(created.status).toBe(201);
  const link = new URL(linkIn(await t.server.mail.waitFor(email, 'invited', before)));
  const token = link.searchParams.get('invitation')!;
  const invitee = new Session(t.server);
  // The page the link opens, its look-up of the address, and the sign-up it sends.
  await (await invitee.request('GET', `${link.pathname}${link.search}`)).body?.cancel();
  expect((await invitee.json('GET', `/api/invitations/${token}`)).status).toBe(200);
  const signUp = await invitee.json('POST', '/api/auth/sign-up/email', {
    email,
    password: 'invited person',
    name: 'Invited',
    invitation: token,
    callbackURL: '/',
  });
  expect(signUp.status).toBe(200);
  const requests = logLines.filter((line) => line.includes('invitation'));
  expect(requests.length).toBeGreaterThanOrEqual(2);
  expect(logLines.filter((line) => line.includes(token))).toEqual([]);
});
