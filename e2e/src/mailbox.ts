import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** One captured mail, as saved by the SMTP server and read back by the tests. */
export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: number;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** Encoded-word subjects ("=?UTF-8?B?...?=") as nodemailer writes them. */
function decodeHeaderWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=\s*/gi, (_, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/**
 * Just enough MIME to read a code mail: headers, then either one body or the parts of a
 * multipart body, each decoded from base64 or quoted-printable. All text parts are joined.
 */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const subject = decodeHeaderWords(/^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary) return { subject, text: decodeBody(headers, body) };
  const parts = body.split(`--${boundary}`).slice(1, -1);
  const text = parts
    .map((part) => {
      const partSplit = part.search(/\r?\n\r?\n/);
      const partHeaders = part.slice(0, partSplit);
      const partBody = part.slice(partSplit).replace(/^\r?\n\r?\n/, '');
      if (/content-type:\s*multipart\//i.test(partHeaders)) return parseMail(part.replace(/^\r?\n/, '')).text;
      return decodeBody(partHeaders, partBody);
    })
    .join('\n');
  return { subject, text };
}

/** A local SMTP server that saves every message as JSON in `dir`, for any process to read. */
export async function startSmtpCapture(dir: string, port: number): Promise<{ close: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { subject, text } = parseMail(Buffer.concat(chunks).toString('utf8'));
        const mail: CapturedMail = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject,
          text,
          receivedAt: Date.now(),
        };
        counter += 1;
        // Written aside and renamed: a test process reading the folder never sees half a file.
        const name = `${Date.now()}-${counter}.json`;
        writeFileSync(join(dir, `${name}.part`), JSON.stringify(mail));
        renameSync(join(dir, `${name}.part`), join(dir, name));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function readMails(dir: string): CapturedMail[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CapturedMail);
}

/** Waits for the newest mail to `email` received after `since` and returns its 6-digit code. */
export async function waitForCode(dir: string, email: string, since: number, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const address = email.toLowerCase();
  while (Date.now() < deadline) {
    const mail = readMails(dir)
      .filter((m) => m.to.includes(address) && m.receivedAt >= since)
      .at(-1);
    const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code mail for ${email} within ${timeoutMs} ms`);
}
