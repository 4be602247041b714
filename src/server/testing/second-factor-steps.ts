import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import * as OTPAuth from 'otpauth';
import { fromBool } from '#server/db/codec.ts';
import type { Db } from '#server/db/database.ts';
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

/** Makes every session of the person look signed in `minutes` ago (Better Auth's freshness). */
export async function ageSignIns(db: Db, userId: string, minutes: number): Promise<void> {
  await db.kysely
    .updateTable('session')
    .set({ createdAt: new Date(Date.now() - minutes * 60_000).toISOString() })
    .where('userId', '=', userId)
    .execute();
}

/**
 * A passkey held in software, as a device would hold it: an ES256 key whose public half is
 * stored as Better Auth stores a registered passkey's, and which answers a sign-in's challenge
 * as an authenticator does (WebAuthn §6.1, §7.2), so a passkey sign-in runs without a browser.
 */
export class SoftwarePasskey {
  readonly #keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  readonly credentialId: string;

  /** `credentialId`: another device's, to play one that claims it (a key of its own). */
  constructor(credentialId = randomBytes(16).toString('base64url')) {
    this.credentialId = credentialId;
  }

  /**
   * Adds the passkey through Settings' routes, as a browser with this device would: asks for
   * options in `session`, answers with an attestation of format `none` (WebAuthn §8.7), the
   * device having checked its person. Returns the verification's status.
   */
  async add(session: Session, name = 'Software passkey'): Promise<number> {
    const options = await session.json<{ challenge: string }>(
      'GET',
      `/api/auth/passkey/generate-register-options?name=${encodeURIComponent(name)}`,
    );
    if (options.status !== 200) return options.status;
    const url = new URL(session.server.url);
    const clientData = clientDataOf('webauthn.create', options.body.challenge, url);
    const credentialId = Buffer.from(this.credentialId, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credentialId.length);
    // The relying party's hash, flags (user present, user verified, credential data), a
    // counter of 0, an all-zero AAGUID, then the credential's id and public key.
    const authData = Buffer.concat([
      createHash('sha256').update(url.hostname).digest(),
      Buffer.from([0x45, 0, 0, 0, 0]),
      Buffer.alloc(16),
      length,
      credentialId,
      this.#cosePublicKey(),
    ]);
    const authDataLength = Buffer.alloc(2);
    authDataLength.writeUInt16BE(authData.length);
    // CBOR: {"fmt": "none", "attStmt": {}, "authData": <bytes>}.
    const attestationObject = Buffer.concat([
      Buffer.from([0xa3, 0x63]),
      Buffer.from('fmt'),
      Buffer.from([0x64]),
      Buffer.from('none'),
      Buffer.from([0x67]),
      Buffer.from('attStmt'),
      Buffer.from([0xa0, 0x68]),
      Buffer.from('authData'),
      Buffer.from([0x59]),
      authDataLength,
      authData,
    ]);
    const verify = await session.request('POST', '/api/auth/passkey/verify-registration', {
      response: this.#credential({
        clientDataJSON: clientData.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      }),
      name,
    });
    await verify.body?.cancel();
    return verify.status;
  }

  /** Stores the public key as the person's passkey. */
  async register(db: Db, userId: string): Promise<void> {
    await db.kysely
      .insertInto('passkey')
      .values({
        id: randomUUID(),
        name: 'Software passkey',
        publicKey: this.#cosePublicKey().toString('base64'),
        userId,
        credentialID: this.credentialId,
        counter: 0,
        deviceType: 'singleDevice',
        backedUp: fromBool(false, db.dialect),
        transports: 'internal',
        createdAt: new Date().toISOString(),
        aaguid: null,
      })
      .execute();
  }

  /**
   * Signs in with the passkey in a fresh cookie jar, as the sign-in screen's passkey button.
   * `userVerified: false` answers as a device that checked only that someone touched it (no
   * PIN, fingerprint or face).
   */
  async signIn(
    server: ServerAddress,
    { userVerified = true }: { userVerified?: boolean } = {},
  ): Promise<{ session: Session; status: number; body: unknown }> {
    const session = new Session(server);
    const options = await session.json<{ challenge: string }>(
      'GET',
      '/api/auth/passkey/generate-authenticate-options',
    );
    if (options.status !== 200) throw new Error(`authenticate options: ${options.status}`);
    const clientData = clientDataOf('webauthn.get', options.body.challenge, new URL(server.url));
    // The relying party's hash, then flags (user present, user verified), then a counter of 0.
    const authenticatorData = Buffer.concat([
      createHash('sha256').update(new URL(server.url).hostname).digest(),
      Buffer.from([userVerified ? 0x05 : 0x01, 0, 0, 0, 0]),
    ]);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]),
      this.#keys.privateKey,
    );
    const verify = await session.request('POST', '/api/auth/passkey/verify-authentication', {
      response: this.#credential({
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
      }),
    });
    const text = await verify.text();
    return { session, status: verify.status, body: text ? (JSON.parse(text) as unknown) : null };
  }

  /** The device's answer as the browser hands it over (a PublicKeyCredential in JSON). */
  #credential(response: Record<string, unknown>) {
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response,
      clientExtensionResults: {},
    };
  }

  /** The public key as a COSE_Key (RFC 9053: EC2, ES256, P-256), CBOR-encoded by hand. */
  #cosePublicKey(): Buffer {
    const jwk = this.#keys.publicKey.export({ format: 'jwk' });
    const coordinate = (value: string | undefined) =>
      Buffer.concat([Buffer.from([0x58, 32]), Buffer.from(value!, 'base64url')]);
    return Buffer.concat([
      // A map of five: kty 2 (EC2), alg -7 (ES256), crv 1 (P-256), then x and y.
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21]),
      coordinate(jwk.x),
      Buffer.from([0x22]),
      coordinate(jwk.y),
    ]);
  }
}

/** What the browser says it asked the device for (WebAuthn §5.8.1), as JSON bytes. */
function clientDataOf(type: 'webauthn.create' | 'webauthn.get', challenge: string, url: URL) {
  return Buffer.from(JSON.stringify({ type, challenge, origin: url.origin, crossOrigin: false }));
}
