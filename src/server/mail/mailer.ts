import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about. */
  link: string;
  /**
   * Whether the link may go to the log when there is no SMTP server. A verification link must
   * (the first user of a fresh install has no other way in); a reset link must not: it sets the
   * password of whoever it names, and logs travel further than the outbox file (mode 600).
   */
  linkInLog: boolean;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** How much of the address an outbox file's name keeps: with the time, well under 255 bytes. */
const OUTBOX_ADDRESS_KEPT = 100;

/**
 * The address as an outbox file's name carries it: safe characters only, and a long address
 * (up to 254 characters, more than a file name holds with the time) cut, with a hash of the
 * whole address so that two long addresses alike at first still get files of their own.
 */
function outboxName(to: string): string {
  const safe = to.replace(/[^A-Za-z0-9@._-]/g, '_');
  if (safe.length <= OUTBOX_ADDRESS_KEPT) return safe;
  const hash = createHash('sha256').update(to).digest('hex').slice(0, 12);
  return `${safe.slice(0, OUTBOX_ADDRESS_KEPT)}-${hash}`;
}

/**
 * Sends through SMTP_URL. Without it, each mail is written to DATA_DIR/outbox as a .eml file
 * and named in the server log with, for a verification mail, its link, so the first user of a
 * fresh install can still verify.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  const { smtpUrl, from, outboxDir, log } = options;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(
        outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${outboxName(mail.to)}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.warn(
        { to: mail.to, subject: mail.subject, file },
        'SMTP_URL is not set: mail written to the outbox instead of sent',
      );
      // The link alone on its line, with what to do, so a newcomer sees it among the start-up
      // lines (in a terminal the message is printed as it is, line breaks included).
      if (mail.linkInLog) {
        log.warn(
          { to: mail.to },
          `To verify ${mail.to}, open this link in a browser and type the password chosen at sign-up:\n\n    ${mail.link}\n`,
        );
      }
    },
    close: () => transport.close(),
  };
}
