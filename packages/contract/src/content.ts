import { z } from 'zod';
import { id, isoTime, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, pageResponse, queryId, safeText } from './common.ts';
import {
  CONTENT_BODY_MAX,
  IMAGE_URL_MAX,
  MAX_UPLOAD_BYTES,
  CONTENT_REASON_MAX,
  CONTENT_TITLE_MAX,
  HELP_QUERY_MAX,
  ROUTE_PATH_MAX,
  SORT_ORDER_MAX,
} from './rules.ts';

export { CONTENT_BODY_MAX, CONTENT_REASON_MAX, CONTENT_TITLE_MAX, IMAGE_URL_MAX, MAX_UPLOAD_BYTES, ROUTE_PATH_MAX, SORT_ORDER_MAX };

/**
 * Content the operators write and everyone reads: banners, notices and help articles
 * (docs/decisions/014-content-and-markdown.md). Titles are one line, bodies are Markdown
 * (rendered to safe HTML by the server); every text exists in zh-CN and en-US.
 */

/** Longest help search text. */
export { HELP_QUERY_MAX };
/** Most banners one reorder may name. */
export const REORDER_MAX = 200;

/** An uploaded file's name: its SHA-256 and the extension of its real (magic-byte) type. */
export const UPLOAD_NAME_RE = /^[0-9a-f]{64}\.(png|jpg|webp)$/;
/** Where an uploaded file is served. */
export const UPLOAD_PATH_PREFIX = '/uploads/';
const UPLOAD_PATH_RE = /^\/uploads\/[0-9a-f]{64}\.(png|jpg|webp)$/;
/** An absolute https URL with a host and no spaces, quotes or angle brackets. */
const HTTPS_URL_RE = /^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s"'<>\\]*)?$/;
/**
 * An in-app path: one leading '/', never '//' or '/\' (a browser reads those as another
 * host), only URL characters.
 */
export const IN_APP_PATH_RE = /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/?#]*$/;

export const contentTitle = safeText({ min: 1, max: CONTENT_TITLE_MAX });
export const contentBody = safeText({ max: CONTENT_BODY_MAX, multiline: true });
const reason = safeText({ max: CONTENT_REASON_MAX }).optional();
const sortOrder = z.number().int().min(0).max(SORT_ORDER_MAX);
/** A time in an admin body: ISO 8601 with an offset ("2026-11-22T10:00:00Z"). */
export const scheduleTime = z.iso.datetime({ offset: true });

/** A banner image: an uploaded file (/uploads/<sha256>.<ext>) or an https URL. */
export const imageUrl = safeText({ min: 1, max: IMAGE_URL_MAX }).refine((v) => UPLOAD_PATH_RE.test(v) || HTTPS_URL_RE.test(v), {
  message: 'must be /uploads/<name> or an https URL',
});

export const inAppPath = safeText({ min: 1, max: ROUTE_PATH_MAX }).refine((v) => IN_APP_PATH_RE.test(v), {
  message: "must be an in-app path starting with a single '/'",
});

/** Page and page size in a query string (docs/product.md §5.8: page from 1, at most 100 a page). */
export const pageQuery = z.object({
  page: queryId.optional().default(1),
  pageSize: queryId.pipe(z.number().max(PAGE_SIZE_MAX)).optional().default(PAGE_SIZE_DEFAULT),
});

// ---------------------------------------------------------------------------------------
// Banners

export const BANNER_LINK_TYPES = ['detail', 'ranking', 'route'] as const;
export const bannerLinkType = z.enum(BANNER_LINK_TYPES);
export type BannerLinkType = z.infer<typeof bannerLinkType>;

/**
 * Where a banner leads, as the operator sets it: its own detail page, an activity's ranking
 * (H2's activities), or any in-app path.
 */
export const bannerLinkInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('detail') }),
  z.object({ type: z.literal('ranking'), activityId: id }),
  z.object({ type: z.literal('route'), path: inAppPath }),
]);
export type BannerLinkInput = z.infer<typeof bannerLinkInput>;

/** Where a banner leads, resolved: target is the in-app path to open ("/banner/detail?id=3"). */
export const bannerLink = z.object({ type: bannerLinkType, target: z.string() });
export type BannerLink = z.infer<typeof bannerLink>;

export const bannerItem = z.object({
  id: z.number().int(),
  title: z.string(),
  imageUrl: z.string(),
  link: bannerLink,
});
export type BannerItem = z.infer<typeof bannerItem>;

/** GET /api/banner/list: the live banners, in order, text in the asked language. */
export const bannerList = z.array(bannerItem);
export type BannerList = z.infer<typeof bannerList>;

/** GET /api/banner/details/{id}: body rendered from Markdown to safe HTML. */
export const bannerDetail = bannerItem.extend({ html: z.string() });
export type BannerDetail = z.infer<typeof bannerDetail>;

/** Whether now is before starts_at, between, after ends_at, or the banner was retired. */
export const bannerState = z.enum(['scheduled', 'live', 'ended', 'retired']);
export type BannerState = z.infer<typeof bannerState>;

function endsAfterStarts(v: { startsAt?: string | undefined; endsAt?: string | null | undefined }): boolean {
  if (!v.endsAt) return true;
  const starts = v.startsAt ? Date.parse(v.startsAt) : Date.now();
  return Date.parse(v.endsAt) > starts;
}

/** POST /api/admin/banners/create and /{id}/update (the whole banner; startsAt omitted: now). */
export const bannerInput = z
  .object({
    titleZh: contentTitle,
    titleEn: contentTitle,
    bodyZh: contentBody.default(''),
    bodyEn: contentBody.default(''),
    imageUrl,
    link: bannerLinkInput,
    sortOrder: sortOrder.default(0),
    startsAt: scheduleTime.optional(),
    endsAt: scheduleTime.nullable().optional(),
  })
  .refine(endsAfterStarts, { message: 'must be after startsAt', path: ['endsAt'] });
export type BannerInput = z.input<typeof bannerInput>;

export const adminBanner = z.object({
  id: z.number().int(),
  titleZh: z.string(),
  titleEn: z.string(),
  bodyZh: z.string(),
  bodyEn: z.string(),
  htmlZh: z.string(),
  htmlEn: z.string(),
  imageUrl: z.string(),
  link: bannerLinkInput,
  /** The in-app path the banner opens. */
  href: z.string(),
  sortOrder: z.number().int(),
  startsAt: isoTime,
  endsAt: isoTime.nullable(),
  retiredAt: isoTime.nullable(),
  state: bannerState,
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type AdminBanner = z.infer<typeof adminBanner>;

/** GET /api/admin/banners: every banner, in display order, retired last. */
export const adminBannerList = z.object({ list: z.array(adminBanner) });
export type AdminBannerList = z.infer<typeof adminBannerList>;

/** POST /api/admin/banners/reorder: the named banners get sort orders 0, 1, 2... in this order. */
export const bannerReorderBody = z.object({
  ids: z
    .array(id)
    .min(1)
    .max(REORDER_MAX)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'ids must not repeat' }),
});
export type BannerReorderBody = z.infer<typeof bannerReorderBody>;

/** POST /api/admin/{banners|notices}/{id}/retire and help deletes; the body may be left out. */
export const contentReasonBody = z
  .object({ reason })
  .nullish()
  .transform((v) => v ?? {});
export type ContentReasonBody = z.input<typeof contentReasonBody>;

/** POST /api/admin/uploads (multipart, one file field): where the stored image is served. */
export const uploadResult = z.object({
  /** "/uploads/<sha256>.<ext>", usable as a banner imageUrl or in Markdown. */
  url: z.string(),
  name: z.string(),
  bytes: z.number().int(),
  contentType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
});
export type UploadResult = z.infer<typeof uploadResult>;

// ---------------------------------------------------------------------------------------
// Notices

/** What a notice is about ("general", "activity_prize", ...): lowercase, digits, underscores. */
export const noticeKind = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'must be lowercase letters, digits or _');

export const noticeItem = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  publishedAt: isoTime,
  /** Addressed to the signed-in user alone (false: a public notice). */
  personal: z.boolean(),
  /** Signed in only: whether this user opened it (or marked all read). */
  read: z.boolean().optional(),
});
export type NoticeItem = z.infer<typeof noticeItem>;

/** GET /api/notice/list?page=&pageSize=: newest first; unreadCount only when signed in. */
export const noticeListQuery = pageQuery;
export type NoticeListQuery = z.input<typeof noticeListQuery>;
export const noticePage = pageResponse(noticeItem).extend({ unreadCount: z.number().int().optional() });
export type NoticePage = z.infer<typeof noticePage>;

/** GET /api/notice/{id}: marks it read for a signed-in user. */
export const noticeDetail = noticeItem.extend({ html: z.string() });
export type NoticeDetail = z.infer<typeof noticeDetail>;

export const unreadCountData = z.object({ unreadCount: z.number().int() });
export type UnreadCountData = z.infer<typeof unreadCountData>;

/** POST /api/notice/read-all: how many notices became read. */
export const readAllData = z.object({ marked: z.number().int() });
export type ReadAllData = z.infer<typeof readAllData>;

export const noticeState = z.enum(['scheduled', 'published', 'retired']);
export type NoticeState = z.infer<typeof noticeState>;

/** POST /api/admin/notices/create: uid null (or omitted) is a public notice; publishedAt omitted: now. */
export const noticeInput = z.object({
  uid: id.nullable().default(null),
  kind: noticeKind.default('general'),
  titleZh: contentTitle,
  titleEn: contentTitle,
  bodyZh: contentBody.default(''),
  bodyEn: contentBody.default(''),
  publishedAt: scheduleTime.optional(),
});
export type NoticeInput = z.input<typeof noticeInput>;

export const adminNotice = z.object({
  id: z.number().int(),
  uid: z.number().int().nullable(),
  kind: z.string(),
  titleZh: z.string(),
  titleEn: z.string(),
  bodyZh: z.string(),
  bodyEn: z.string(),
  htmlZh: z.string(),
  htmlEn: z.string(),
  publishedAt: isoTime,
  retiredAt: isoTime.nullable(),
  state: noticeState,
  /** Set when a feature sent it (e.g. an activity prize); one notice per key. */
  dedupeKey: z.string().nullable(),
  createdAt: isoTime,
});
export type AdminNotice = z.infer<typeof adminNotice>;

/** GET /api/admin/notices?page=&pageSize=&uid=&scope=: newest first. */
export const adminNoticeQuery = pageQuery.extend({
  uid: queryId.optional(),
  scope: z.enum(['all', 'public', 'personal']).optional().default('all'),
});
export type AdminNoticeQuery = z.input<typeof adminNoticeQuery>;
export const adminNoticePage = pageResponse(adminNotice);
export type AdminNoticePage = z.infer<typeof adminNoticePage>;

// ---------------------------------------------------------------------------------------
// Help

/** A help topic's key: lowercase letters, digits and '-'. */
export const helpTopicKey = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be lowercase letters, digits or -');

/** GET /api/help/list?q=: q searches titles in the asked language (case-insensitive). */
export const helpListQuery = z.object({ q: safeText({ max: HELP_QUERY_MAX }).optional() });
export type HelpListQuery = z.infer<typeof helpListQuery>;

export const helpArticleItem = z.object({ id: z.number().int(), title: z.string() });
export type HelpArticleItem = z.infer<typeof helpArticleItem>;
export const helpTopicGroup = z.object({ key: z.string(), title: z.string(), articles: z.array(helpArticleItem) });
export type HelpTopicGroup = z.infer<typeof helpTopicGroup>;
/** Topics in order, each with its articles in order; with q, only topics with a match. */
export const helpList = z.object({ topics: z.array(helpTopicGroup) });
export type HelpList = z.infer<typeof helpList>;

/** GET /api/help/{id}. */
export const helpArticle = z.object({
  id: z.number().int(),
  topicKey: z.string(),
  topicTitle: z.string(),
  title: z.string(),
  html: z.string(),
  updatedAt: isoTime,
});
export type HelpArticle = z.infer<typeof helpArticle>;

/** POST /api/admin/help/topics/create and /{id}/update. */
export const helpTopicInput = z.object({
  key: helpTopicKey,
  titleZh: contentTitle,
  titleEn: contentTitle,
  sortOrder: sortOrder.default(0),
});
export type HelpTopicInput = z.input<typeof helpTopicInput>;

/** POST /api/admin/help/articles/create and /{id}/update. */
export const helpArticleInput = z.object({
  topicId: id,
  titleZh: contentTitle,
  titleEn: contentTitle,
  bodyZh: contentBody,
  bodyEn: contentBody,
  sortOrder: sortOrder.default(0),
});
export type HelpArticleInput = z.input<typeof helpArticleInput>;

export const adminHelpTopic = z.object({
  id: z.number().int(),
  key: z.string(),
  titleZh: z.string(),
  titleEn: z.string(),
  sortOrder: z.number().int(),
});
export type AdminHelpTopic = z.infer<typeof adminHelpTopic>;

export const adminHelpArticle = z.object({
  id: z.number().int(),
  topicId: z.number().int(),
  titleZh: z.string(),
  titleEn: z.string(),
  bodyZh: z.string(),
  bodyEn: z.string(),
  htmlZh: z.string(),
  htmlEn: z.string(),
  sortOrder: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type AdminHelpArticle = z.infer<typeof adminHelpArticle>;

/** GET /api/admin/help: every topic in order with its articles' titles. */
export const adminHelpTree = z.object({
  topics: z.array(
    adminHelpTopic.extend({
      articles: z.array(
        z.object({ id: z.number().int(), titleZh: z.string(), titleEn: z.string(), sortOrder: z.number().int(), updatedAt: isoTime }),
      ),
    }),
  ),
});
export type AdminHelpTree = z.infer<typeof adminHelpTree>;

/** Answer of a delete: the id that is gone. */
export const deletedData = z.object({ id: z.number().int() });
export type DeletedData = z.infer<typeof deletedData>;
