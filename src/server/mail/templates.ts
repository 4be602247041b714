import { INVITATION_DAYS } from '#shared/people-admin.ts';
import type { Mail } from './mailer.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function linkMail(
  to: string,
  subject: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
  linkInLog: boolean,
): Mail {
  return {
    to,
    subject,
    link,
    linkInLog,
    text: `${intro}\n\n${action}:\n${link}\n\n${outro}\n`,
    html: `<p>${escape(intro)}</p><p><a href="${escape(link)}">${escape(action)}</a></p><p>${escape(outro)}</p>`,
  };
}

export function verifyEmailMail(to: string, link: string): Mail {
  return linkMail(
    to,
    'Verify your email for Clients Manager',
    'Welcome to Clients Manager. Confirm this is your email address to finish signing up.',
    'Verify email address',
    link,
    'If you did not sign up, you can ignore this mail.',
    true,
  );
}

export function resetPasswordMail(to: string, link: string): Mail {
  return linkMail(
    to,
    'Reset your Clients Manager password',
    'Someone asked to reset the password of your Clients Manager account.',
    'Choose a new password',
    link,
    'If it was not you, ignore this mail: your password stays as it is.',
    false,
  );
}

export function invitationMail(to: string, link: string, invitedBy: string): Mail {
  return linkMail(
    to,
    'You are invited to Clients Manager',
    `${invitedBy} invited you to Clients Manager. Choose a password to create your account; the link works once, for ${INVITATION_DAYS} days.`,
    'Create your account',
    link,
    'If you did not expect this, you can ignore this mail: no account is made without you.',
    // Like a reset link, it makes an account for whoever holds it: never into the log.
    false,
  );
}
