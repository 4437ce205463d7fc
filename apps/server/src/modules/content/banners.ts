import {
  type AdminBanner,
  adminBanner,
  adminBannerList,
  apiResponse,
  type BannerLinkInput,
  bannerDetail,
  bannerInput,
  bannerList,
  bannerReorderBody,
  contentReasonBody,
  ErrorCode,
  idParams,
  type Locale,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { BizError, invalid, notFound } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import type { SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';
import { renderMarkdown } from './markdown.ts';
import { adminTags, iso, isoOrNull, signedIn, tags, textColumn } from './shared.ts';

/** Most banners the home carousel gets; more live ones than this is an operator's mistake. */
export const MAX_LIVE_BANNERS = 50;

interface BannerRow {
  id: number;
  title_zh: string;
  title_en: string;
  body_zh: string;
  body_en: string;
  image_url: string;
  link_type: 'detail' | 'ranking' | 'route';
  link_target: string | null;
  sort_order: number;
  starts_at: Date;
  ends_at: Date | null;
  retired_at: Date | null;
  created_at: Date;
  updated_at: Date;
  state: AdminBanner['state'];
}

const COLUMNS = `id, title_zh, title_en, body_zh, body_en, image_url, link_type, link_target, sort_order,
  starts_at, ends_at, retired_at, created_at, updated_at,
  CASE WHEN retired_at IS NOT NULL THEN 'retired'
       WHEN starts_at > now() THEN 'scheduled'
       WHEN ends_at IS NOT NULL AND ends_at <= now() THEN 'ended'
       ELSE 'live' END AS state`;
/** Shown to readers: started, not ended, not retired. */
const LIVE = 'retired_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now())';

/** The in-app path a banner opens. */
function hrefOf(row: Pick<BannerRow, 'id' | 'link_type' | 'link_target'>): string {
  if (row.link_type === 'detail') return `/banner/detail?id=${row.id}`;
  if (row.link_type === 'ranking') return `/banner/ranking?id=${row.link_target}`;
  return row.link_target ?? '/';
}

function linkInputOf(row: BannerRow): BannerLinkInput {
  if (row.link_type === 'ranking') return { type: 'ranking', activityId: Number(row.link_target) };
  if (row.link_type === 'route') return { type: 'route', path: row.link_target ?? '/' };
  return { type: 'detail' };
}

function linkTargetOf(link: BannerLinkInput): string | null {
  if (link.type === 'ranking') return String(link.activityId);
  if (link.type === 'route') return link.path;
  return null;
}

function publicItem(row: BannerRow, locale: Locale) {
  const col = textColumn(locale);
  return {
    id: row.id,
    title: row[`title_${col}`],
    imageUrl: row.image_url,
    link: { type: row.link_type, target: hrefOf(row) },
  };
}

/** What the audit trail keeps of a banner: everything but the rendered HTML. */
function auditView(row: BannerRow) {
  const { htmlZh: _zh, htmlEn: _en, ...rest } = adminView(row);
  return rest;
}

function adminView(row: BannerRow): AdminBanner {
  return {
    id: row.id,
    titleZh: row.title_zh,
    titleEn: row.title_en,
    bodyZh: row.body_zh,
    bodyEn: row.body_en,
    htmlZh: renderMarkdown(row.body_zh),
    htmlEn: renderMarkdown(row.body_en),
    imageUrl: row.image_url,
    link: linkInputOf(row),
    href: hrefOf(row),
    sortOrder: row.sort_order,
    startsAt: iso(row.starts_at),
    endsAt: isoOrNull(row.ends_at),
    retiredAt: isoOrNull(row.retired_at),
    state: row.state,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

type BannerValues = z.output<typeof bannerInput>;

/** The window must close after it opens; startsAt omitted is now (create) or unchanged (update). */
function checkWindow(input: BannerValues, startsAt: Date) {
  if (input.endsAt && Date.parse(input.endsAt) <= startsAt.getTime()) throw invalid('endsAt');
}

async function lockBanner(q: Query, id: number): Promise<BannerRow> {
  const [row] = await q<BannerRow>(`SELECT ${COLUMNS} FROM banners WHERE id = $1 FOR UPDATE`, [id]);
  if (!row) throw notFound();
  return row;
}

export class BannerService {
  constructor(private readonly database: Database) {}

  async live(locale: Locale) {
    const rows = await this.database.sql.query<BannerRow>(
      `SELECT ${COLUMNS} FROM banners WHERE ${LIVE} ORDER BY sort_order, id LIMIT ${MAX_LIVE_BANNERS}`,
    );
    return rows.map((row) => publicItem(row, locale));
  }

  async liveDetail(id: number, locale: Locale) {
    const [row] = await this.database.sql.query<BannerRow>(`SELECT ${COLUMNS} FROM banners WHERE id = $1 AND ${LIVE}`, [id]);
    if (!row) throw notFound();
    return { ...publicItem(row, locale), html: renderMarkdown(row[`body_${textColumn(locale)}`]) };
  }

  async all() {
    const rows = await this.database.sql.query<BannerRow>(
      `SELECT ${COLUMNS} FROM banners ORDER BY retired_at IS NOT NULL, sort_order, id DESC`,
    );
    return { list: rows.map(adminView) };
  }

  async one(id: number) {
    const [row] = await this.database.sql.query<BannerRow>(`SELECT ${COLUMNS} FROM banners WHERE id = $1`, [id]);
    if (!row) throw notFound();
    return adminView(row);
  }

  create(operator: SessionUser, input: BannerValues) {
    const startsAt = input.startsAt ? new Date(input.startsAt) : new Date();
    checkWindow(input, startsAt);
    return inTransaction(this.database, async (q) => {
      const [row] = await q<BannerRow>(
        `INSERT INTO banners (title_zh, title_en, body_zh, body_en, image_url, link_type, link_target, sort_order, starts_at, ends_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
        [...this.values(input), startsAt, input.endsAt ?? null],
      );
      await recordOperatorAction(q, {
        ...operatorOf(operator),
        action: 'banner.create',
        targetType: 'banner',
        targetId: row!.id,
        before: null,
        after: auditView(row!),
      });
      return adminView(row!);
    });
  }

  update(operator: SessionUser, id: number, input: BannerValues) {
    return inTransaction(this.database, async (q) => {
      const before = await lockBanner(q, id);
      if (before.retired_at) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE, 'retired');
      const startsAt = input.startsAt ? new Date(input.startsAt) : before.starts_at;
      checkWindow(input, startsAt);
      const [row] = await q<BannerRow>(
        `UPDATE banners SET title_zh = $1, title_en = $2, body_zh = $3, body_en = $4, image_url = $5, link_type = $6,
           link_target = $7, sort_order = $8, starts_at = $9, ends_at = $10, updated_at = now()
         WHERE id = $11 RETURNING ${COLUMNS}`,
        [...this.values(input), startsAt, input.endsAt ?? null, id],
      );
      await recordOperatorAction(q, {
        ...operatorOf(operator),
        action: 'banner.update',
        targetType: 'banner',
        targetId: id,
        before: auditView(before),
        after: auditView(row!),
      });
      return adminView(row!);
    });
  }

  /** The named banners get sort orders 0, 1, 2... in the order given; others keep theirs. */
  reorder(operator: SessionUser, ids: number[]) {
    return inTransaction(this.database, async (q) => {
      const json = JSON.stringify(ids);
      const before = await q<{ id: number; sort_order: number }>(
        `SELECT id, sort_order FROM banners WHERE id IN (SELECT value::bigint FROM jsonb_array_elements_text($1::jsonb))
         ORDER BY id FOR UPDATE`,
        [json],
      );
      if (before.length !== ids.length) throw notFound();
      await q(
        `UPDATE banners SET sort_order = x.ord - 1, updated_at = now()
         FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS x(value, ord)
         WHERE banners.id = x.value::bigint`,
        [json],
      );
      await recordOperatorAction(q, {
        ...operatorOf(operator),
        action: 'banner.reorder',
        targetType: 'banner',
        targetId: null,
        before: before.map((r) => ({ id: r.id, sortOrder: r.sort_order })),
        after: ids.map((bannerId, i) => ({ id: bannerId, sortOrder: i })),
      });
    });
  }

  retire(operator: SessionUser, id: number, reason: string | undefined) {
    return inTransaction(this.database, async (q) => {
      const before = await lockBanner(q, id);
      if (before.retired_at) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE, 'retired');
      const [row] = await q<BannerRow>(`UPDATE banners SET retired_at = now(), updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [
        id,
      ]);
      await recordOperatorAction(q, {
        ...operatorOf(operator),
        action: 'banner.retire',
        targetType: 'banner',
        targetId: id,
        reason: reason || null,
        before: auditView(before),
        after: auditView(row!),
      });
      return adminView(row!);
    });
  }

  private values(input: BannerValues) {
    return [
      input.titleZh,
      input.titleEn,
      input.bodyZh,
      input.bodyEn,
      input.imageUrl,
      input.link.type,
      linkTargetOf(input.link),
      input.sortOrder,
    ];
  }
}

export async function bannerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new BannerService(app.deps.database);
  const operator = { preHandler: app.requireOperator };

  app.get(
    '/banner/list',
    { schema: { tags, summary: 'The live banners in display order (text in the asked language)', response: apiResponse(bannerList) } },
    async (request) => {
      const locale = requestLocale(request);
      return ok(await service.live(locale), locale);
    },
  );

  app.get(
    '/banner/details/:id',
    {
      schema: {
        tags,
        summary: 'One live banner with its body as HTML (4004 when unknown, not yet started, ended or retired)',
        params: idParams,
        response: apiResponse(bannerDetail),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      return ok(await service.liveDetail(request.params.id, locale), locale);
    },
  );

  app.get(
    '/admin/banners',
    {
      ...operator,
      schema: { tags: adminTags, security: signedIn, summary: 'Every banner with its state', response: apiResponse(adminBannerList) },
    },
    async (request) => ok(await service.all(), requestLocale(request)),
  );

  app.get(
    '/admin/banners/:id',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'One banner, Markdown and HTML',
        params: idParams,
        response: apiResponse(adminBanner),
      },
    },
    async (request) => ok(await service.one(request.params.id), requestLocale(request)),
  );

  app.post(
    '/admin/banners/create',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Create a banner (startsAt omitted: now; endsAt null: no end)',
        body: bannerInput,
        response: apiResponse(adminBanner),
      },
    },
    async (request) => ok(await service.create(request.user, request.body), requestLocale(request)),
  );

  app.post(
    '/admin/banners/:id/update',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Replace a banner (startsAt omitted: unchanged); 3007 when retired',
        params: idParams,
        body: bannerInput,
        response: apiResponse(adminBanner),
      },
    },
    async (request) => ok(await service.update(request.user, request.params.id, request.body), requestLocale(request)),
  );

  app.post(
    '/admin/banners/reorder',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Give the named banners sort orders 0, 1, 2... in this order (4004 if any is unknown)',
        body: bannerReorderBody,
        response: apiResponse(adminBannerList),
      },
    },
    async (request) => {
      await service.reorder(request.user, request.body.ids);
      return ok(await service.all(), requestLocale(request));
    },
  );

  app.post(
    '/admin/banners/:id/retire',
    {
      ...operator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Retire a banner for good (3007 when already retired)',
        params: idParams,
        body: contentReasonBody,
        response: apiResponse(adminBanner),
      },
    },
    async (request) => ok(await service.retire(request.user, request.params.id, request.body.reason), requestLocale(request)),
  );
}
