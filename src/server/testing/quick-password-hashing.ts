import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { verifyPassword } from 'better-auth/crypto';
import type { PasswordHashing } from '#server/auth/auth.ts';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: string,
  length: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;

/** Marks a hash made here, so that it is never mistaken for one of Better Auth's. */
const PREFIX = 'test-scrypt-n1024$';

/** Better Auth's scrypt settings but N: 1024 instead of 16384, a sixteenth of the work. */
const COST = { N: 1024, r: 16, p: 1 } as const;
const KEY_LENGTH = 64;

function derive(password: string, salt: string): Promise<Buffer> {
  return scryptAsync(password.normalize('NFKC'), salt, KEY_LENGTH, COST);
}

/**
 * Password hashing for the servers tests start in their own process (test-server.ts): scrypt
 * as Better Auth does it, at a sixteenth of its cost. Its cost is its purpose in production,
 * and in the test suites, which sign people up by the hundred on 2 cores, a large share of
 * their CPU (docs/decisions/0008). A hash
 * without this module's prefix (one a server process or `npm run user` made with Better Auth's
 * own settings) is checked by Better Auth's own function, so data made either way signs in.
 */
export const quickPasswordHashing: PasswordHashing = {
  async hash(password) {
    const salt = randomBytes(16).toString('hex');
    return `${PREFIX}${salt}:${(await derive(password, salt)).toString('hex')}`;
  },
  async verify({ hash, password }) {
    if (!hash.startsWith(PREFIX)) return verifyPassword({ hash, password });
    const [salt, key] = hash.slice(PREFIX.length).split(':');
    if (!salt || !key) throw new Error('Invalid password hash');
    const expected = Buffer.from(key, 'hex');
    const derived = await derive(password, salt);
    return derived.length === expected.length && timingSafeEqual(derived, expected);
  },
};
