import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../core/data-dir-lock.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise the mail is printed to the log and kept as JSON in
 * DATA_DIR/mail so a newcomer can read the sign-up code without a mail server.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, ...mail });
      },
      close: () => transport.close(),
    };
  }
  // The saved mails hold live sign-up, reset and withdrawal codes: 0700 folders, 0600 files.
  const outbox = path.join(opts.dataDir, 'mail');
  return {
    async send(mail) {
      ensurePrivateDir(opts.dataDir);
      ensurePrivateDir(outbox);
      const file = path.join(outbox, `${Date.now()}-${mail.to.replace(/[^a-z0-9@.]/gi, '_')}.json`);
      await fs.promises.writeFile(file, JSON.stringify({ from: opts.from, ...mail }, null, 2), { mode: PRIVATE_FILE_MODE });
      opts.log.warn({ to: mail.to, subject: mail.subject, file }, `MAIL (console mode) to ${mail.to}: ${mail.text}`);
    },
    close: () => {},
  };
}
