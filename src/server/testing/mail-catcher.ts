import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface CaughtMail {
  to: string[];
  subject: string;
  /** The message as received, with quoted-printable soft breaks and escapes decoded. */
  text: string;
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, so tests send mail the way
 * production does (nodemailer over SMTP_URL) and read the links out of it.
 */
export class MailCatcher {
  readonly mails: CaughtMail[] = [];
  readonly #server: SMTPServer;
  readonly #waiters = new Set<() => void>();
  #held: { arrived: () => void; released: Promise<void> } | null = null;
  port = 0;

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8'));
          const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject,
            text: raw,
          });
          for (const wake of this.#waiters) wake();
          const held = this.#held;
          if (held) {
            held.arrived();
            void held.released.then(() => callback());
          } else callback();
        });
      },
    });
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /**
   * Holds the next mail's SMTP transaction open (the sender is still waiting for the server's
   * answer) until `release`: `arrived` resolves when its data is in. Tests use it to show that
   * something answered while a mail was still being sent.
   */
  hold(): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const hold = {
      arrived: new Promise<void>((resolve) => (arrived = resolve)),
      released: new Promise<void>((resolve) => (release = resolve)),
    };
    this.#held = { arrived, released: hold.released };
    return {
      arrived: hold.arrived,
      release: () => {
        this.#held = null;
        release();
      },
    };
  }

  /** Waits for a mail to `to` whose subject contains `subject`, newer than the `after`th mail. */
  async waitFor(to: string, subject: string, after = 0, timeoutMs = 10_000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.mails
        .slice(after)
        .find((m) => m.to.includes(to.toLowerCase()) && m.subject.includes(subject));
      if (mail) return mail;
      if (Date.now() > deadline)
        throw new Error(`No mail "${subject}" to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
        setTimeout(wake, 200);
      });
    }
  }
}

/** The first http(s) link in a mail. */
export function linkIn(mail: CaughtMail): string {
  const match = /https?:\/\/[^\s"<>]+/.exec(mail.text);
  if (!match) throw new Error(`No link in mail "${mail.subject}"`);
  return match[0].replace(/&amp;/g, '&');
}
