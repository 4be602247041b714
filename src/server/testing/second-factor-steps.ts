import { setTimeout as wait } from 'node:timers/promises';
import * as OTPAuth from 'otpauth';
import { Session, type ServerAddress } from './test-server.ts';

/**
 * A person's authenticator app. The server accepts each code once, and the step before and
 * after the current one: a test asks for the next code as a person waits for the app to show a
 * new one, and waits for the clock only when both steps it may use are used.
 */
export class Authenticator {
  readonly totp: OTPAuth.TOTP;
  #lastStep = Number.NEGATIVE_INFINITY;

  constructor(totp: OTPAuth.TOTP) {
    this.totp = totp;
  }

  /** The code of the step used last, which the server now refuses. */
  get usedCode(): string {
    return this.#codeOf(this.#lastStep);
  }

  /** A code of a step after every one used so far, within the server's window. */
  async nextCode(): Promise<string> {
    const now = this.#stepAt(Date.now());
    const step = Math.max(this.#lastStep + 1, now);
    // The current step's and the next one's are accepted until the current step ends.
    if (step > now + 1) await wait((step - 1) * this.totp.period * 1000 - Date.now());
    this.#lastStep = step;
    return this.#codeOf(step);
  }

  #stepAt(ms: number): number {
    return Math.floor(ms / 1000 / this.totp.period);
  }

  #codeOf(step: number): string {
    return this.totp.generate({ timestamp: step * this.totp.period * 1000 });
  }
}

/** What a person keeps after turning on codes: their authenticator app, and the backup codes. */
export interface Enrolled {
  app: Authenticator;
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
  const app = new Authenticator(totp);
  const verify = await session.request('POST', '/api/auth/two-factor/verify-totp', {
    code: await app.nextCode(),
  });
  if (verify.status !== 200) throw new Error(`verify-totp: ${verify.status}`);
  return { app, backupCodes: enable.body.backupCodes };
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
