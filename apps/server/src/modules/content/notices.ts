import {
  type AdminNotice,
  adminNotice,
  adminNoticePage,
  adminNoticeQuery,
  apiResponse,
  contentReasonBody,
  ErrorCode,
  idParams,
  type Locale,
  noticeDetail,
  noticeInput,
  noticeListQuery,
  noticePage,
  readAllData,
  unreadCountData,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { BizError, notFound } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import type { SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { renderMarkdown } from './markdown.ts';
import { adminTags, iso, isoOrNull, optionalUser, signedIn, tags, textColumn } from './shared.ts';

interface NoticeRow {
  id: number;
  user_id: number | null;
  kind: string;
  title_zh: string;
  title_en: string;
  body_zh: string;
  body_en: string;
  published_at: Date;
  retired_at: Date | null;
  dedupe_key: string | null;
  created_at: Date;
  state: AdminNotice['state'];
  read?: boolean;
}

const COLUMNS = `n.id, n.user_id, n.kind, n.title_zh, n.title_en, n.body_zh, n.body_en, n.published_at, n.retired_at,
  n.dedupe_key, n.created_at,
  CASE WHEN n.retired_at IS NOT NULL THEN 'retired' WHEN n.published_at > now() THEN 'scheduled' ELSE 'published' END AS state`;
/** What a reader sees: published, not retired, public or addressed to them ($1: their id or null). */
const VISIBLE = `n.retired_at IS NULL AND n.published_at <= now() AND (n.user_id IS NULL OR n.user_id = $1)`;
const UNREAD = 'NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.user_id = $1 AND r.notice_id = n.id)';

function readerItem(row: NoticeRow, locale: Locale, signedIn: boolean) {
  const col = textColumn(locale);
  return {
    id: row.id,
    kind: row.kind,
    title: row[`title_${col}`],
    publishedAt: iso(row.published_at),
    personal: row.user_id !== null,
    ...(signedIn && { read: Boolean(row.read) }),
  };
}

function adminView(row: NoticeRow): AdminNotice {
  return {
    id: row.id,
    uid: row.user_id,
    kind: row.kind,
    titleZh: row.title_zh,
    titleEn: row.title_en,
    bodyZh: row.body_zh,
    bodyEn: row.body_en,
    htmlZh: renderMarkdown(row.body_zh),
    htmlEn: renderMarkdown(row.body_en),
    publishedAt: iso(row.published_at),
    retiredAt: isoOrNull(row.retired_at),
    state: row.state,
    dedupeKey: row.dedupe_key,
    createdAt: iso(row.created_at),
  };
}

function auditView(row: NoticeRow) {
  const { htmlZh: _zh, htmlEn: _en, ...rest } = adminView(row);
  return rest;
}

export class NoticeService {
  constructor(private readonly database: Database) {}

  async page(userId: number | null, { page, pageSize }: { page: number; pageSize: number }, locale: Locale) {
    const sql = this.database.sql;
    const rows = await sql.query<NoticeRow>(
      `SELECT ${COLUMNS}, ${userId === null ? 'false' : `NOT ${UNREAD}`} AS read FROM notices n WHERE ${VISIBLE}
       ORDER BY n.published_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
      [userId, pageSize, (page - 1) * pageSize],
    );
    const [count] = await sql.query<{ total: number; unread: number }>(
      `SELECT count(*)::int AS total, ${userId === null ? '0' : `count(*) FILTER (WHERE ${UNREAD})::int`} AS unread
       FROM notices n WHERE ${VISIBLE}`,
      [userId],
    );
    return {
      list: rows.map((row) => readerItem(row, locale, userId !== null)),
      total: count?.total ?? 0,
      page,
      pageSize,
      ...(userId !== null && { unreadCount: count?.unread ?? 0 }),
    };
  }

  /** One notice the reader may see; opening it marks it read for a signed-in reader. */
  async detail(userId: number | null, id: number, locale: Locale) {
    const [row] = await this.database.sql.query<NoticeRow>(`SELECT ${COLUMNS} FROM notices n WHERE n.id = $2 AND ${VISIBLE}`, [userId, id]);
    if (!row) throw notFound();
    if (userId !== null) {
      await this.database.sql.query('INSERT INTO notice_reads (user_id, notice_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, id]);
    }
    return { ...readerItem({ ...row, read: true }, locale, userId !== null), html: renderMarkdown(row[`body_${textColumn(locale)}`]) };
  }

  async unreadCount(userId: number) {
    const [row] = await this.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM notices n WHERE ${VISIBLE} AND ${UNREAD}`, [
      userId,
    ]);
    return { unreadCount: row?.n ?? 0 };
  }

  async readAll(userId: number) {
    const rows = await this.database.sql.query(
      `INSERT INTO notice_reads (user_id, notice_id) SELECT $1, n.id FROM notices n WHERE ${VISIBLE} AND ${UNREAD}
       ON CONFLICT DO NOTHING RETURNING notice_id`,
      [userId],
    );
    return { marked: rows.length };
  }

  async adminPage(query: z.output<typeof adminNoticeQuery>) {
    const { page, pageSize, uid, scope } = query;
    const where = [
      uid === undefined ? 'true' : 'n.user_id = $3',
      scope === 'public' ? 'n.user_id IS NULL' : scope === 'personal' ? 'n.user_id IS NOT NULL' : 'true',
    ].join(' AND ');
    const params = uid === undefined ? [] : [uid];
    const rows = await this.database.sql.query<NoticeRow>(
      `SELECT ${COLUMNS} FROM notices n WHERE ${where} ORDER BY n.published_at DESC, n.id DESC LIMIT $1 OFFSET $2`,
      [pageSize, (page - 1) * pageSize, ...params],
    );
    const [count] = await this.database.sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM notices n WHERE ${where.replace('$3', '$1')}`,
      params,
    );
    return { list: rows.map(adminView), total: count?.total ?? 0, page, pageSize };
  }

  async one(id: number) {
    const [row] = await this.database.sql.query<NoticeRow>(`SELECT ${COLUMNS} FROM notices n WHERE n.id = $1`, [id]);
    if (!row) throw notFound();
    return adminView(row);
  }

  create(operator: SessionUser, input: z.output<typeof noticeInput>) {
    return inTransaction(this.database, async (q) => {
      if (input.uid !== null) {
        const [user] = await q('SELECT id FROM users WHERE id = $1', [input.uid]);
        if (!user) throw new BizError(ErrorCode.RECIPIENT_NOT_FOUND, 'uid');
      }
      const [row] = await q<NoticeRow>(
        `INSERT INTO notices AS n (user_id, kind, title_zh, title_en, body_zh, body_en, published_at)
         VALUES ($1, $2, $3, $4, $5, $6, coalesce($7::timestamptz, now())) RETURNING ${COLUMNS}`,
        [input.uid, input.kind, input.titleZh, input.titleEn, input.bodyZh, input.bodyEn, input.publishedAt ?? null],
      );
      await recordOperatorAction(q, {
        ...operatorOf(operator),
        action: 'notice.create',
        targetType: 'notice',
        targetId: row!.id,
        before: null,
        after: auditView(row!),
      });
      return adminView(row!);
    });
  }

  retire(operator: SessionUser, id: number, reason: string | undefined) {
    return inTransaction(this.database, async (q) => {
      const [before] = await q<NoticeRow>(`SELECT ${COLUMNS} FROM notices n WHERE n.id = $1 FOR UPDATE`, [id]);
      if (!before) throw notFound();
      if (before.retired_at) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE, 'retired');
      const [row] = await q<NoticeRow>(`UPDATE notices AS n SET retired_at = now() WHERE n.id = $1 RETURNING ${COLUMNS}`, [id]);
      await recordOperatorAction(q, {
        ...operatorOf(operator),
        action: 'notice.retire',
        targetType: 'notice',
        targetId: id,
        reason: reason || null,
        before: auditView(before),
        after: auditView(row!),
      });
      return adminView(row!);
    });
  }
}

export async function noticeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;
  const service = new NoticeService(database);
  const operator = { preHandler: app.requireOperator };
  const signedInOnly = { preHandler: app.authenticate };

  app.get(
    '/notice/list',
    {
      schema: {
        tags,
        summary: 'Notices, newest first: public ones, plus (signed in) your own with read state and unreadCount',
        description: 'X-Token is optional here; a missing, invalid or expired token answers as signed out.',
        querystring: noticeListQuery,
        response: apiResponse(noticePage),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      const user = await optionalUser(database.db, request);
      return ok(await service.page(user?.id ?? null, request.query, locale), locale);
    },
  );

  app.get(
    '/notice/unread-count',
    {
      ...signedInOnly,
      schema: { tags, security: signedIn, summary: 'How many notices you have not read', response: apiResponse(unreadCountData) },
    },
    async (request) => ok(await service.unreadCount(request.user.id), requestLocale(request)),
  );

  app.post(
    '/notice/read-all',
    {
      ...signedInOnly,
      schema: { tags, security: signedIn, summary: 'Mark every notice you can see as read', response: apiResponse(readAllData) },
    },
    async (request) => ok(await service.readAll(request.user.id), requestLocale(request)),
  );

  app.get(
    '/notice/:id',
    {
      schema: {
        tags,
        summary: "One notice with its body as HTML; marks it read when signed in (4004: unknown or another user's)",
        params: idParams,
        response: apiResponse(noticeDetail),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      const user = await optionalUser(database.db, request);
      return ok(await service.detail(user?.id ?? null, request.params.id, locale), locale);
    },
  );

  app.get(
    '/admin/notices',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Every notice, newest first (scope all/public/personal, uid filters one user)',
        querystring: adminNoticeQuery,
        response: apiResponse(adminNoticePage),
      },
    },
    async (request) => ok(await service.adminPage(request.query), requestLocale(request)),
  );

  app.get(
    '/admin/notices/:id',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'One notice, Markdown and HTML',
        params: idParams,
        response: apiResponse(adminNotice),
      },
    },
    async (request) => ok(await service.one(request.params.id), requestLocale(request)),
  );

  app.post(
    '/admin/notices/create',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Publish a notice to everyone (uid null) or one user (3004 unknown uid); publishedAt schedules it',
        body: noticeInput,
        response: apiResponse(adminNotice),
      },
    },
    async (request) => ok(await service.create(request.user, request.body), requestLocale(request)),
  );

  app.post(
    '/admin/notices/:id/retire',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Withdraw a notice from readers (3007 when already retired)',
        params: idParams,
        body: contentReasonBody,
        response: apiResponse(adminNotice),
      },
    },
    async (request) => ok(await service.retire(request.user, request.params.id, request.body.reason), requestLocale(request)),
  );
}
