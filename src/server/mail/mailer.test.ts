import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, type Mail } from './mailer.ts';

const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-outbox-'));
afterAll(() => fs.rmSync(outboxDir, { recursive: true, force: true }));

const mailer = createMailer({
  smtpUrl: undefined,
  from: 'Clients Manager <noreply@example.test>',
  outboxDir,
  log: pino({ level: 'silent' }),
});

const mail = (to: string): Mail => ({
  to,
  subject: 'Verify your email',
  text: 'Open the link',
  html: '<p>Open the link</p>',
  link: 'http://127.0.0.1/confirm-email?token=x',
  linkInLog: false,
});

/** The outbox file written for `send`, the one new since before it. */
async function written(send: () => Promise<void>): Promise<string> {
  const before = new Set(fs.readdirSync(outboxDir));
  await send();
  const added = fs.readdirSync(outboxDir).filter((name) => !before.has(name));
  expect(added).toHaveLength(1);
  return added[0]!;
}

describe('the outbox without SMTP_URL', () => {
  it('names the file after a short address as it is', async () => {
    const name = await written(() => mailer.send(mail('ada@example.test')));
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-ada@example\.test\.eml$/);
  });

  it('writes the mail of the longest legal address, under a name the file system takes', async () => {
    const to = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(56)}.test`;
    expect(to.length).toBe(254);
    const name = await written(() => mailer.send(mail(to)));
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).toMatch(/^[\w@.-]+\.eml$/);
    expect(fs.readFileSync(path.join(outboxDir, name), 'utf8')).toContain(
      'Subject: Verify your email',
    );
    // Two long addresses that share their beginning get files of their own.
    const other = `${to.slice(0, -5)}.tes2`;
    const otherName = await written(() => mailer.send(mail(other)));
    expect(otherName.replace(/^[^Z]+Z/, '')).not.toBe(name.replace(/^[^Z]+Z/, ''));
  });
});
