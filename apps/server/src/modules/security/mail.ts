import { randomUUID } from 'node:crypto';
import { DEFAULT_LOCALE, type Locale, type SecurityEventKind } from '@coffer/contract';
import { eq } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { notifierFor, securityWords } from '../notify/index.ts';
import { antiPhishingLine, type SecurityEventDetail, securityEventMail, securityEventWhere } from './mail-templates.ts';
import { deviceName } from './user-agent.ts';

const asLocale = (v: string | null | undefined): Locale | undefined => (v === 'zh-CN' || v === 'en-US' ? v : undefined);

/**
 * The one place a user's anti-phishing phrase enters their mail: every mail the app sends
 * (codes, alerts, security notices) goes through this mailer, which looks the recipient up
 * and, when they set a phrase, opens the text and the HTML with it. The label follows the
 * mail's own language (its `<html lang>`), else the account's.
 */
export function withAntiPhishing(mailer: Mailer, db: Db): Mailer {
  return {
    async send(mail) {
      const [user] = await db
        .select({ phrase: users.antiPhishingPhrase, language: users.language })
        .from(users)
        .where(eq(users.email, mail.to.toLowerCase()))
        .limit(1);
      if (!user?.phrase) return mailer.send(mail);
      const locale = asLocale(mail.html?.match(/<html lang="([^"]+)"/)?.[1]) ?? asLocale(user.language) ?? DEFAULT_LOCALE;
      const line = antiPhishingLine(locale, user.phrase);
      return mailer.send({
        ...mail,
        text: `${line.text}\n\n${mail.text}`,
        ...(mail.html && {
          html: /<body[^>]*>/.test(mail.html) ? mail.html.replace(/<body[^>]*>/, (body) => `${body}\n${line.html}`) : line.html + mail.html,
        }),
      });
    },
    close: () => mailer.close(),
  };
}

export interface SecurityEventClient {
  ip?: string | null;
  userAgent?: string | null;
}

/** Security events that also make a notice (and push), with their mail behind the user's toggle (docs/decisions/054). */
const NOTICE_KINDS = ['new_sign_in', 'two_factor_enabled'] as const;
type NoticeKind = (typeof NOTICE_KINDS)[number];
const makesNotice = (kind: SecurityEventKind): kind is NoticeKind => (NOTICE_KINDS as readonly string[]).includes(kind);

/**
 * Mails the user about a security event in their language (password reset, new sign-in,
 * 2FA or passkey change). Never throws: a lost notice must not fail the action it reports.
 * A new sign-in and two-step verification turned on also make a notice; their mail follows
 * the user's security-mail toggle (on unless turned off).
 */
export async function notifySecurityEvent(
  deps: { database: Database | { db: Db }; mailer: Mailer },
  userId: number,
  kind: SecurityEventKind,
  client: SecurityEventClient = {},
  log?: { error: (obj: object, msg: string) => void },
  extra: Pick<SecurityEventDetail, 'hold' | 'book'> = {},
): Promise<void> {
  try {
    const [user] = await deps.database.db
      .select({ email: users.email, language: users.language })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user) return;
    const locale = asLocale(user.language) ?? DEFAULT_LOCALE;
    const detail = { device: deviceName(client.userAgent), ip: client.ip, at: new Date(), ...extra };
    const notifier = 'sql' in deps.database ? notifierFor(deps.database) : undefined;
    if (notifier && makesNotice(kind)) {
      const words = (l: Locale) => securityWords(l, kind, securityEventWhere(l, detail));
      // each call is one event (one sign-in, one enabling): a key of its own
      await notifier.publish([
        {
          userId,
          kind,
          category: 'security',
          dedupeKey: `${kind}:${userId}:${randomUUID()}`,
          words: { 'zh-CN': words('zh-CN'), 'en-US': words('en-US') },
          mail: (l) => securityEventMail(l, kind, detail),
        },
      ]);
      return;
    }
    const mail = securityEventMail(locale, kind, detail);
    await deps.mailer.send({ to: user.email, ...mail });
  } catch (err) {
    log?.error({ err }, `security notice mail (${kind}) failed`);
  }
}
