/** How long "Trust this device" skips the code at sign-in on that browser. */
export const TRUST_DEVICE_DAYS = 30;

/**
 * How recent a sign-in must be to add a passkey or make an API token: each lets in without the
 * password and stays through a password reset, so a session taken over long after its sign-in
 * must not add one of its own. Better Auth's `session.freshAge`, counted from the sign-in.
 */
export const RECENT_SIGN_IN_MINUTES = 10;

export const PASSKEY_NEEDS_RECENT_SIGN_IN = `Sign out and sign in again to add a passkey: it lets its device in without your password, so it needs a sign-in from the last ${RECENT_SIGN_IN_MINUTES} minutes.`;

export const PASSKEY_NOT_USER_VERIFIED_MESSAGE =
  'This passkey signed in without checking it is you (no PIN, fingerprint or face). Use a passkey that asks for one, or sign in with your password.';
