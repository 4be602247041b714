import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session, confirmSignUp, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

// A fresh install has no SMTP server: the first user must still be able to verify, from the
// link in the server log or the .eml file in DATA_DIR/outbox.
const lines: string[] = [];
const t = serveThisFile({
  env: { SMTP_URL: '', LOG_LEVEL: 'info' },
  start: { logStream: { write: (line) => lines.push(line) } },
});

/** A quoted-printable body with its soft line breaks and escapes undone. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe('mail without SMTP_URL', () => {
  it('writes the verification mail to the outbox and its link to the log; the link verifies', async () => {
    const email = uniqueEmail('first');
    const session = new Session(t.server);
    const signUp = await session.request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'first user password',
      name: 'First Staff',
      callbackURL: '/',
    });
    expect(signUp.status).toBe(200);
    expect(t.server.mail.mails).toHaveLength(0);

    const outbox = path.join(t.server.dataDir, 'outbox');
    const files = fs.readdirSync(outbox).filter((f) => f.includes(email));
    expect(files).toHaveLength(1);
    const file = path.join(outbox, files[0]!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const eml = decodeQuotedPrintable(fs.readFileSync(file, 'utf8'));
    expect(eml).toContain(`To: ${email}`);
    expect(eml).toContain('Subject: Verify your email');

    const entries = lines.map((line) => JSON.parse(line) as { msg: string; to?: string });
    expect(
      entries.find((entry) => entry.to === email && entry.msg.startsWith('SMTP_URL is not set')),
    ).toBeDefined();
    // The link stands on a line of its own, after a word on what to do with it.
    const logged = entries.find((entry) => entry.to === email && entry.msg.startsWith('To verify'));
    const link = logged?.msg.match(
      /^To verify \S+, open this link in a browser and type the password chosen at sign-up:\n\n {4}(http:\/\/127\.0\.0\.1:\d+\/confirm-email\?token=\S+)\n$/,
    )?.[1];
    expect(link).toBeDefined();
    expect(eml).toContain(link!);

    expect((await session.json('GET', '/api/me')).status).toBe(401);
    expect((await confirmSignUp(session, link!, 'first user password')).status).toBe(200);
    const me = await session.json<{ email: string; emailVerified: boolean }>('GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, emailVerified: true });

    // Once someone has verified, a link in the log would let anyone who reads the log into
    // an account that someone else is signing up: the outbox file (mode 600) still has it.
    const second = uniqueEmail('second');
    const secondSignUp = await new Session(t.server).request('POST', '/api/auth/sign-up/email', {
      email: second,
      password: 'second user password',
      name: 'Second Staff',
      callbackURL: '/',
    });
    expect(secondSignUp.status).toBe(200);
    const secondLogged = lines
      .map((line) => JSON.parse(line) as { msg: string; to?: string; file?: string })
      .filter((entry) => entry.to === second);
    expect(secondLogged.map((entry) => entry.msg)).toEqual([
      'SMTP_URL is not set: mail written to the outbox instead of sent',
    ]);
    expect(secondLogged[0]?.file).toContain(path.join(t.server.dataDir, 'outbox'));
    const aboutSecond = lines.filter((line) => line.includes(second));
    expect(aboutSecond.length).toBeGreaterThan(0);
    for (const line of aboutSecond) expect(line).not.toContain('verify-email?token=');
  });
});
