import * as OTPAuth from 'otpauth';
import { Session, type ServerAddress } from './test-server.ts';

/** What a person keeps after turning on codes: their authenticator app, and the backup codes. */
export interface Enrolled {
  totp: OTPAuth.TOTP;
  backupCodes: string[];
}

/**
 * Turns on authenticator codes through Better Auth's routes, as the Settings screen does: the
 * password, then a first code computed from the secret in the otpauth:// link.
 */
export async function enrolTotp(session: Session, password: string): Promise<Enrolled> {
  const enable = await session.json<{ totpURI: string; backupCodes: string[] }>(
    'POST',
    '/api/auth/two-factor/enable',
    { password },
  );
  if (enable.status !== 200) throw new Error(`enable: ${enable.status} ${JSON.stringify(enable)}`);
  const totp = OTPAuth.URI.parse(enable.body.totpURI);
  if (!(totp instanceof OTPAuth.TOTP)) throw new Error('enable: not a TOTP link');
  const verify = await session.request('POST', '/api/auth/two-factor/verify-totp', {
    code: totp.generate(),
  });
  if (verify.status !== 200) throw new Error(`verify-totp: ${verify.status}`);
  return { totp, backupCodes: enable.body.backupCodes };
}

/** The first step of a password sign-in in a fresh cookie jar (or the one given). */
export async function signInWithPassword(
  server: ServerAddress,
  email: string,
  password: string,
  session = new Session(server),
): Promise<{ session: Session; body: { twoFactorRedirect?: boolean } }> {
  const response = await session.json<{ twoFactorRedirect?: boolean }>(
    'POST',
    '/api/auth/sign-in/email',
    { email, password },
  );
  if (response.status !== 200) throw new Error(`sign-in: ${response.status}`);
  return { session, body: response.body };
}
