import { describe, expect, it } from 'vitest';
import { hashPassword } from 'better-auth/crypto';
import { quickPasswordHashing } from './quick-password-hashing.ts';

describe('quick password hashing for test servers', () => {
  it('checks its own hashes: the password, and nothing else', async () => {
    const hash = await quickPasswordHashing.hash('correct horse battery');
    expect(hash).toMatch(/^test-scrypt-n1024\$[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await quickPasswordHashing.hash('correct horse battery')).not.toBe(hash);
    expect(await quickPasswordHashing.verify({ hash, password: 'correct horse battery' })).toBe(
      true,
    );
    expect(await quickPasswordHashing.verify({ hash, password: 'correct horse batterz' })).toBe(
      false,
    );
    // A hash cut short is a refusal, not a failure of the sign-in.
    const cut = hash.slice(0, -2);
    expect(
      await quickPasswordHashing.verify({ hash: cut, password: 'correct horse battery' }),
    ).toBe(false);
  });

  it("checks Better Auth's own hashes as Better Auth does", async () => {
    const hash = await hashPassword('made by a server process');
    expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await quickPasswordHashing.verify({ hash, password: 'made by a server process' })).toBe(
      true,
    );
    expect(await quickPasswordHashing.verify({ hash, password: 'made by someone else' })).toBe(
      false,
    );
  });
});
