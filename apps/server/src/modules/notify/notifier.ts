import { DEFAULT_LOCALE, type EventNoticeKind, type Locale } from '@coffer/contract';
import { sanitizeError } from '../../core/log.ts';
import type { Database } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { type PushTarget, sendPush, type VapidKeys } from './push.ts';
import { plainFirstLine, type Words, wordsMail } from './templates.ts';

/**
 * One event a user hears about (docs/decisions/054): a notice in their notice center always,
 * a mail when their toggle for the category is on, a Web Push to each subscribed browser.
 * The dedupe key names the event (e.g. "deposit:7:credited"): a notice per key, and only the
 * call that made the notice mails and pushes, so a retry or a second worker sends nothing twice.
 */
export interface NoticeEvent {
  userId: number;
  kind: EventNoticeKind;
  category: 'money' | 'security';
  dedupeKey: string;
  words: Record<Locale, Words>;
  /** The mail in a language; default: the notice's words as a mail. */
  mail?: (locale: Locale) => { subject: string; text: string; html: string };
}

export interface NotifierLog {
  warn(obj: object, msg: string): void;
}

export interface NotifierDeps {
  database: Database;
  mailer: Mailer;
  log: NotifierLog;
  push: { keys: VapidKeys; subject: string };
}

interface Recipient {
  id: number;
  email: string;
  language: string | null;
  mail_money_events: boolean;
  mail_security_events: boolean;
}

const asLocale = (v: string | null): Locale => (v === 'en-US' || v === 'zh-CN' ? v : DEFAULT_LOCALE);

/** What a failed send is logged with: never the mail, the address or an SMTP URL. */
const failure = (e: unknown) => ({
  code: (e as { code?: unknown }).code ?? null,
  responseCode: (e as { responseCode?: unknown }).responseCode ?? null,
});

export class Notifier {
  constructor(private readonly deps: NotifierDeps) {}

  /**
   * Writes the notices (one statement; a key already used inserts nothing) and then delivers
   * the new ones. Throws only when the notices could not be written; a mail or push that
   * fails is logged and dropped (the notice stays).
   */
  async publish(events: NoticeEvent[]): Promise<void> {
    if (events.length === 0) return;
    const col = <T>(f: (e: NoticeEvent) => T) => events.map(f);
    const made = await this.deps.database.sql.query<{ id: number; dedupe_key: string }>(
      `insert into notices (user_id, kind, title_zh, title_en, body_zh, body_en, dedupe_key)
       select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
       on conflict (dedupe_key) do nothing returning id, dedupe_key`,
      [
        col((e) => e.userId),
        col((e) => e.kind),
        col((e) => e.words['zh-CN'].title),
        col((e) => e.words['en-US'].title),
        col((e) => e.words['zh-CN'].body),
        col((e) => e.words['en-US'].body),
        col((e) => e.dedupeKey),
      ],
    );
    if (made.length === 0) return;
    const byKey = new Map(events.map((e) => [e.dedupeKey, e]));
    const fresh = made.map((row) => ({ id: Number(row.id), event: byKey.get(row.dedupe_key)! }));
    await this.deliver(fresh);
  }

  private async deliver(fresh: { id: number; event: NoticeEvent }[]): Promise<void> {
    try {
      const ids = [...new Set(fresh.map((f) => f.event.userId))];
      const sql = this.deps.database.sql;
      const users = await sql.query<Recipient>(
        'select id, email, language, mail_money_events, mail_security_events from users where id = any($1::bigint[])',
        [ids],
      );
      const targets = await sql.query<PushTarget & { user_id: number }>(
        'select user_id, endpoint, p256dh, auth from push_subscriptions where user_id = any($1::bigint[])',
        [ids],
      );
      const byId = new Map(users.map((u) => [Number(u.id), u]));
      await Promise.all(
        fresh.map(async ({ id, event }) => {
          const user = byId.get(event.userId);
          if (!user) return;
          const locale = asLocale(user.language);
          const mailOn = event.category === 'money' ? user.mail_money_events : user.mail_security_events;
          await Promise.all([
            mailOn ? this.mail(user.email, locale, event) : undefined,
            ...targets.filter((t) => Number(t.user_id) === event.userId).map((t) => this.push(t, locale, id, event)),
          ]);
        }),
      );
    } catch (e) {
      this.deps.log.warn({ error: sanitizeError(e) }, 'event notice delivery failed');
    }
  }

  private async mail(to: string, locale: Locale, event: NoticeEvent) {
    try {
      const mail = event.mail ? event.mail(locale) : wordsMail(locale, event.words[locale]);
      await this.deps.mailer.send({ to, ...mail });
    } catch (e) {
      this.deps.log.warn({ kind: event.kind, error: failure(e) }, 'event notice mail failed');
    }
  }

  private async push(target: PushTarget, locale: Locale, noticeId: number, event: NoticeEvent) {
    const words = event.words[locale];
    const payload = {
      title: words.title,
      body: plainFirstLine(words.body),
      url: `/noticeCenter/detail?id=${noticeId}`,
      tag: `notice-${noticeId}`,
    };
    const outcome = await sendPush(this.deps.push.keys, this.deps.push.subject, target, payload);
    if (outcome === 'gone') {
      // the browser dropped the subscription: stop posting to it
      await this.deps.database.sql.query('delete from push_subscriptions where endpoint = $1', [target.endpoint]).catch(() => {});
    } else if (outcome === 'failed') {
      this.deps.log.warn({ kind: event.kind }, 'event notice push failed');
    }
  }
}

/** The notifier of each app's database (tests run several apps in one process). */
const notifiers = new WeakMap<Database, Notifier>();

export function registerNotifier(database: Database, notifier: Notifier): void {
  notifiers.set(database, notifier);
}

/** The notifier the app registered for this database; none in CLIs and simulators. */
export function notifierFor(database: Database): Notifier | undefined {
  return notifiers.get(database);
}
