import type { LoginData, MailType } from '@coffer/contract';
import type { TestApp } from '../../test/harness.ts';
import { client } from '../../test/users.ts';

export const sendMailUrl = (email: string, type: MailType) => `/api/sendMail?email=${encodeURIComponent(email)}&type=${type}`;

/** Mails a register code, reads it from the SMTP capture and registers: the stored X-Token value. */
export async function signUp(t: TestApp, email: string, password: string, extra: { nickname?: string; lang?: string } = {}) {
  const api = client(t);
  const sent = await api('GET', sendMailUrl(email, 'register'), { lang: extra.lang });
  if (sent.code !== 0) throw new Error(`sendMail ${sent.code} ${sent.message}`);
  const code = await t.mailbox.lastCode(email);
  const res = await api<LoginData>('POST', '/api/register', {
    body: { email, password, code, ...(extra.nickname && { nickname: extra.nickname }) },
    lang: extra.lang,
  });
  if (res.code !== 0) throw new Error(`register ${res.code} ${res.message}`);
  return res.data.tokenHead + res.data.token;
}

export async function logIn(t: TestApp, email: string, password: string) {
  const res = await client(t)<LoginData>('POST', '/api/login', { body: { email, password } });
  if (res.code !== 0) throw new Error(`login ${res.code} ${res.message}`);
  return res.data.tokenHead + res.data.token;
}

export const mailsTo = (t: TestApp, email: string) => t.mailbox.mails.filter((m) => m.to === email.toLowerCase());

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Subject and decoded text part of a captured raw mail (RFC 2047 words, base64 or QP body). */
export function decodeMail(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const subjectLine = head.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1] ?? '';
  const subject = subjectLine
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
      enc.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeQp(data.replaceAll('_', ' ')),
    );
  const body = rest.join('\n\n');
  const part = body.match(/Content-Type: text\/plain[\s\S]*?Content-Transfer-Encoding: (\S+)\r?\n\r?\n([\s\S]*?)\r?\n----/i);
  if (!part) return { subject, text: '' };
  const [, encoding = '', content = ''] = part;
  const text =
    encoding.toLowerCase() === 'base64' ? Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8') : decodeQp(content);
  return { subject, text };
}

function decodeQp(s: string): string {
  const bytes: number[] = [];
  const flat = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < flat.length; i++) {
    if (flat[i] === '=' && /^[0-9A-F]{2}$/i.test(flat.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(flat.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(flat[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
