import { test, expect } from './fixtures.ts';
import { onlyAdmins, setAccess } from '../src/server/testing/access.ts';
import { signUpVerified, uniqueEmail } from '../src/server/testing/test-server.ts';
import { linkIn } from '../src/server/testing/mail-catcher.ts';
import { saveScreen } from './screens.ts';

test('an administrator invites someone, changes their role and tags, disables them, and sees the audit trail live', async ({
  page,
  browser,
  server,
  staff,
}) => {
  // The only administrator of this worker's installation: earlier tests' people may be admins
  // (the first person of an installation is one), and the last-admin refusal below needs none.
  await setAccess(server, staff, { role: 'admin' });
  await onlyAdmins(server, [staff]);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'People' })
    .click();
  await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();

  // Invite: the mail carries a sign-up link with the address fixed.
  const email = uniqueEmail('invitee');
  const before = server.mail.mails.length;
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const invite = page.getByRole('dialog', { name: 'Invite someone' });
  await invite.getByLabel('Email').fill(email);
  await invite.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Viewer' }).click();
  // A tag the server refuses (`tags.0` in its answer) is named at the tags field.
  const inviteTags = invite.getByRole('combobox', { name: 'Limit to tags' });
  await inviteTags.fill('x'.repeat(101));
  await inviteTags.press('Enter');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(inviteTags).toHaveAttribute('aria-invalid', 'true');
  await expect(inviteTags).toHaveAccessibleDescription(/Must be at most 100 characters/);
  await inviteTags.press('Backspace');
  await inviteTags.fill('eu');
  await inviteTags.press('Enter');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toHaveCount(0);
  const invitations = page.getByRole('list', { name: 'Pending invitations' });
  await expect(invitations.getByText(email)).toBeVisible();
  const mail = await server.mail.waitFor(email, 'invited to Clients Manager', before);

  const invitee = await browser.newContext();
  const inviteePage = await invitee.newPage();
  // Signed up without the link, the address is refused beside it: only the link proves the
  // mailbox, and a sign-up without it would mail a link for a password anyone may have chosen.
  await inviteePage.goto(`${server.url}/sign-up`);
  await inviteePage.getByLabel('Email').fill(email);
  await inviteePage.getByLabel('Password').fill('typed without the link');
  await inviteePage.getByRole('button', { name: 'Sign up' }).click();
  await expect(inviteePage.getByLabel('Email')).toHaveAccessibleDescription(
    'This address has an invitation: sign up through the link in its mail',
  );
  await inviteePage.goto(linkIn(mail));
  const address = inviteePage.getByLabel('Email');
  await expect(address).toHaveValue(email);
  await expect(address).toHaveAttribute('readonly', '');
  await inviteePage.getByLabel('Password').fill('invited and joined');
  await inviteePage.setViewportSize({ width: 390, height: 844 });
  await saveScreen(inviteePage, 'people/sign-up-invited-phone', { fullPage: true });
  await inviteePage.getByRole('button', { name: 'Sign up' }).click();
  await expect(inviteePage).toHaveURL(`${server.url}/`);
  await invitee.close();

  // The admin's screen learns of the new person from the live feed.
  const people = page.getByRole('table', { name: 'People' });
  const row = people.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Viewer');
  await expect(row).toContainText('eu');
  await expect(invitations.getByText(email)).toHaveCount(0);
  const trail = page.getByRole('list', { name: 'Audit trail' });
  await expect(trail.getByText('joined with an invitation')).toBeVisible();

  // Role and tags.
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Change role and tags' }).click();
  const access = page.getByRole('dialog', { name: `Role and tags of ${email}` });
  await access.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Editor' }).click();
  await access.getByRole('combobox', { name: 'Limit to tags' }).fill('acme');
  await access.getByRole('combobox', { name: 'Limit to tags' }).press('Enter');
  await saveScreen(page, 'people/access-dialog-desktop');
  await access.getByRole('button', { name: 'Save' }).click();
  await expect(access).toHaveCount(0);
  await expect(row).toContainText('Editor');
  await expect(row).toContainText('eu, acme');
  await expect(trail.getByText(`made ${email} an editor`)).toBeVisible();

  // An administrator has no tag limit: the field empties and locks while that role is chosen.
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Change role and tags' }).click();
  const tagsField = access.getByRole('combobox', { name: 'Limit to tags' });
  await expect(tagsField).toBeEnabled();
  await access.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Administrator' }).click();
  await expect(tagsField).toBeDisabled();
  await expect(access.getByText('Administrators see every client.')).toBeVisible();
  await expect(access.getByText('acme', { exact: true })).toHaveCount(0);
  await saveScreen(page, 'people/access-dialog-admin');
  await access.getByRole('button', { name: 'Save' }).click();
  await expect(access).toHaveCount(0);
  await expect(row).toContainText('Administrator');
  await expect(row).toContainText('All clients');

  // Disable, after a confirmation.
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await page
    .getByRole('dialog', { name: `Disable ${email}?` })
    .getByRole('button', {
      name: 'Disable',
    })
    .click();
  await expect(row).toContainText('Disabled');
  await expect(trail.getByText(`disabled ${email}`)).toBeVisible();

  // The last administrator is told why they may not step down.
  const meRow = people.getByRole('row').filter({ hasText: '(you)' });
  await meRow.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await page
    .getByRole('dialog', { name: /^Disable / })
    .getByRole('button', { name: 'Disable' })
    .click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'is the last administrator' }),
  ).toBeVisible();

  // Another administrator's change appears in the trail without a reload.
  const colleague = await signUpVerified(server, { email: uniqueEmail('colleague') });
  await setAccess(server, colleague, { role: 'admin' });
  const { body: list } = await colleague.json<{ people: { id: string; email: string }[] }>(
    'GET',
    '/api/people',
  );
  const inviteeId = list.people.find((p) => p.email === email)!.id;
  await colleague.json('PATCH', `/api/people/${inviteeId}`, { disabled: false });
  await expect(trail.getByText(`enabled ${email}`)).toBeVisible();
  await expect(row).toContainText('Active');

  await saveScreen(page, 'people/people-desktop', { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('list', { name: 'People' })).toBeVisible();
  await saveScreen(page, 'people/people-phone', { fullPage: true });
});

test('People is not in the navigation of someone who is not an administrator', async ({
  page,
  server,
  staff,
}) => {
  // The first person of this worker's installation is its admin: this one is an editor.
  await setAccess(server, staff, { role: 'editor' });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Servers' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'People' })).toHaveCount(0);
});

test('the sign-up page says when an invitation link is not valid', async ({ browser, server }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/sign-up?invitation=made-up-token`);
  await expect(page.getByRole('alert')).toContainText('This invitation link is not valid any more');
  await expect(page.getByLabel('Email')).not.toHaveAttribute('readonly', '');
  await context.close();
});

test('a role changed in the dialog keeps the tags another administrator set while it was open', async ({
  page,
  server,
  staff,
}) => {
  await setAccess(server, staff, { role: 'admin' });
  const email = uniqueEmail('narrowed');
  const person = await signUpVerified(server, { email, name: 'Narrowed Person' });
  const personId = await setAccess(server, person, { role: 'editor', tags: ['north', 'south'] });
  await page.goto('/people');
  const row = page
    .getByRole('table', { name: 'People' })
    .getByRole('row')
    .filter({ hasText: email });
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Change role and tags' }).click();
  const access = page.getByRole('dialog', { name: `Role and tags of ${email}` });
  await expect(access.getByRole('combobox', { name: 'Role' })).toHaveValue('Editor');
  // Another administrator narrows the person to one tag; this dialog still shows both.
  const narrowed = await staff.json('PATCH', `/api/people/${personId}`, { tags: ['north'] });
  expect(narrowed.status).toBe(200);
  await access.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Viewer' }).click();
  await access.getByRole('button', { name: 'Save' }).click();
  await expect(access).toHaveCount(0);
  await expect(row).toContainText('Viewer');
  await expect(row).not.toContainText('south');
  await saveScreen(page, 'people/access-kept-colleague-tags');
  const { body } = await staff.json<{ people: { id: string; role: string; tags: unknown }[] }>(
    'GET',
    '/api/people',
  );
  expect(body.people.find(({ id }) => id === personId)).toMatchObject({
    role: 'viewer',
    tags: ['north'],
  });
});
