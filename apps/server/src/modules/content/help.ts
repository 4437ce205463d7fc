import {
  type AdminHelpArticle,
  adminHelpArticle,
  adminHelpTopic,
  adminHelpTree,
  apiResponse,
  contentReasonBody,
  deletedData,
  ErrorCode,
  helpArticle,
  helpArticleInput,
  helpList,
  helpListQuery,
  helpTopicInput,
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
import { adminTags, containsPattern, iso, signedIn, tags, textColumn } from './shared.ts';

interface TopicRow {
  id: number;
  key: string;
  title_zh: string;
  title_en: string;
  sort_order: number;
}

interface ArticleRow {
  id: number;
  topic_id: number;
  title_zh: string;
  title_en: string;
  body_zh: string;
  body_en: string;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

const TOPIC_COLUMNS = 'id, key, title_zh, title_en, sort_order';
const ARTICLE_COLUMNS = 'id, topic_id, title_zh, title_en, body_zh, body_en, sort_order, created_at, updated_at';

const topicView = (row: TopicRow) => ({
  id: row.id,
  key: row.key,
  titleZh: row.title_zh,
  titleEn: row.title_en,
  sortOrder: row.sort_order,
});

function articleView(row: ArticleRow): AdminHelpArticle {
  return {
    id: row.id,
    topicId: row.topic_id,
    titleZh: row.title_zh,
    titleEn: row.title_en,
    bodyZh: row.body_zh,
    bodyEn: row.body_en,
    htmlZh: renderMarkdown(row.body_zh),
    htmlEn: renderMarkdown(row.body_en),
    sortOrder: row.sort_order,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function articleAudit(row: ArticleRow) {
  const { htmlZh: _zh, htmlEn: _en, ...rest } = articleView(row);
  return rest;
}

type TopicValues = z.output<typeof helpTopicInput>;
type ArticleValues = z.output<typeof helpArticleInput>;

async function lockRow<T>(q: Query, table: 'help_topics' | 'help_articles', id: number): Promise<T> {
  const columns = table === 'help_topics' ? TOPIC_COLUMNS : ARTICLE_COLUMNS;
  const [row] = await q<T>(`SELECT ${columns} FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  if (!row) throw notFound();
  return row;
}

async function keyTaken(q: Query, key: string, exceptId: number | null) {
  const rows = await q('SELECT 1 FROM help_topics WHERE key = $1 AND id IS DISTINCT FROM $2', [key, exceptId]);
  if (rows.length > 0) throw invalid('key (taken)');
}

async function topicExists(q: Query, topicId: number) {
  const rows = await q('SELECT 1 FROM help_topics WHERE id = $1', [topicId]);
  if (rows.length === 0) throw new BizError(ErrorCode.NOT_FOUND, 'topicId');
}

export class HelpService {
  constructor(private readonly database: Database) {}

  /** Topics in order with their articles; q keeps articles whose title (asked language) contains it. */
  async list(locale: Locale, q: string | undefined) {
    const col = textColumn(locale);
    const rows = await this.database.sql.query<{ key: string; topic: string; id: number; title: string }>(
      `SELECT t.key, t.title_${col} AS topic, a.id, a.title_${col} AS title
       FROM help_topics t JOIN help_articles a ON a.topic_id = t.id
       WHERE ($1::text IS NULL OR a.title_${col} ILIKE $1 ESCAPE '\\')
       ORDER BY t.sort_order, t.id, a.sort_order, a.id`,
      [q ? containsPattern(q) : null],
    );
    const topics: { key: string; title: string; articles: { id: number; title: string }[] }[] = [];
    for (const row of rows) {
      let topic = topics.at(-1);
      if (topic?.key !== row.key) {
        topic = { key: row.key, title: row.topic, articles: [] };
        topics.push(topic);
      }
      topic.articles.push({ id: row.id, title: row.title });
    }
    return { topics };
  }

  async article(id: number, locale: Locale) {
    const col = textColumn(locale);
    const [row] = await this.database.sql.query<{ id: number; key: string; topic: string; title: string; body: string; updated_at: Date }>(
      `SELECT a.id, t.key, t.title_${col} AS topic, a.title_${col} AS title, a.body_${col} AS body, a.updated_at
       FROM help_articles a JOIN help_topics t ON t.id = a.topic_id WHERE a.id = $1`,
      [id],
    );
    if (!row) throw notFound();
    return {
      id: row.id,
      topicKey: row.key,
      topicTitle: row.topic,
      title: row.title,
      html: renderMarkdown(row.body),
      updatedAt: iso(row.updated_at),
    };
  }

  async tree() {
    const topics = await this.database.sql.query<TopicRow>(`SELECT ${TOPIC_COLUMNS} FROM help_topics ORDER BY sort_order, id`);
    const articles = await this.database.sql.query<ArticleRow>(`SELECT ${ARTICLE_COLUMNS} FROM help_articles ORDER BY sort_order, id`);
    return {
      topics: topics.map((t) => ({
        ...topicView(t),
        articles: articles
          .filter((a) => a.topic_id === t.id)
          .map((a) => ({ id: a.id, titleZh: a.title_zh, titleEn: a.title_en, sortOrder: a.sort_order, updatedAt: iso(a.updated_at) })),
      })),
    };
  }

  async oneArticle(id: number) {
    const [row] = await this.database.sql.query<ArticleRow>(`SELECT ${ARTICLE_COLUMNS} FROM help_articles WHERE id = $1`, [id]);
    if (!row) throw notFound();
    return articleView(row);
  }

  createTopic(operator: SessionUser, input: TopicValues) {
    return inTransaction(this.database, async (q) => {
      await keyTaken(q, input.key, null);
      const [row] = await q<TopicRow>(
        `INSERT INTO help_topics (key, title_zh, title_en, sort_order) VALUES ($1, $2, $3, $4) RETURNING ${TOPIC_COLUMNS}`,
        [input.key, input.titleZh, input.titleEn, input.sortOrder],
      );
      await this.audit(q, operator, 'help.topic.create', 'help_topic', row!.id, null, topicView(row!));
      return topicView(row!);
    });
  }

  updateTopic(operator: SessionUser, id: number, input: TopicValues) {
    return inTransaction(this.database, async (q) => {
      const before = await lockRow<TopicRow>(q, 'help_topics', id);
      await keyTaken(q, input.key, id);
      const [row] = await q<TopicRow>(
        `UPDATE help_topics SET key = $1, title_zh = $2, title_en = $3, sort_order = $4 WHERE id = $5 RETURNING ${TOPIC_COLUMNS}`,
        [input.key, input.titleZh, input.titleEn, input.sortOrder, id],
      );
      await this.audit(q, operator, 'help.topic.update', 'help_topic', id, topicView(before), topicView(row!));
      return topicView(row!);
    });
  }

  /** Only an empty topic can go (3007 while it has articles). */
  deleteTopic(operator: SessionUser, id: number, reason: string | undefined) {
    return inTransaction(this.database, async (q) => {
      const before = await lockRow<TopicRow>(q, 'help_topics', id);
      const used = await q('SELECT 1 FROM help_articles WHERE topic_id = $1 LIMIT 1', [id]);
      if (used.length > 0) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE, 'topic has articles');
      await q('DELETE FROM help_topics WHERE id = $1', [id]);
      await this.audit(q, operator, 'help.topic.delete', 'help_topic', id, topicView(before), null, reason);
      return { id };
    });
  }

  createArticle(operator: SessionUser, input: ArticleValues) {
    return inTransaction(this.database, async (q) => {
      await topicExists(q, input.topicId);
      const [row] = await q<ArticleRow>(
        `INSERT INTO help_articles (topic_id, title_zh, title_en, body_zh, body_en, sort_order)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ARTICLE_COLUMNS}`,
        [input.topicId, input.titleZh, input.titleEn, input.bodyZh, input.bodyEn, input.sortOrder],
      );
      await this.audit(q, operator, 'help.article.create', 'help_article', row!.id, null, articleAudit(row!));
      return articleView(row!);
    });
  }

  updateArticle(operator: SessionUser, id: number, input: ArticleValues) {
    return inTransaction(this.database, async (q) => {
      const before = await lockRow<ArticleRow>(q, 'help_articles', id);
      await topicExists(q, input.topicId);
      const [row] = await q<ArticleRow>(
        `UPDATE help_articles SET topic_id = $1, title_zh = $2, title_en = $3, body_zh = $4, body_en = $5, sort_order = $6,
           updated_at = now() WHERE id = $7 RETURNING ${ARTICLE_COLUMNS}`,
        [input.topicId, input.titleZh, input.titleEn, input.bodyZh, input.bodyEn, input.sortOrder, id],
      );
      await this.audit(q, operator, 'help.article.update', 'help_article', id, articleAudit(before), articleAudit(row!));
      return articleView(row!);
    });
  }

  deleteArticle(operator: SessionUser, id: number, reason: string | undefined) {
    return inTransaction(this.database, async (q) => {
      const before = await lockRow<ArticleRow>(q, 'help_articles', id);
      await q('DELETE FROM help_articles WHERE id = $1', [id]);
      await this.audit(q, operator, 'help.article.delete', 'help_article', id, articleAudit(before), null, reason);
      return { id };
    });
  }

  private audit(
    q: Query,
    operator: SessionUser,
    action: string,
    targetType: string,
    targetId: number,
    before: unknown,
    after: unknown,
    reason?: string,
  ) {
    return recordOperatorAction(q, { ...operatorOf(operator), action, targetType, targetId, reason: reason || null, before, after });
  }
}

export async function helpRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new HelpService(app.deps.database);
  const operator = { preHandler: app.requireOperator };
  const admin = { tags: adminTags, security: signedIn };

  app.get(
    '/help/list',
    {
      schema: {
        tags,
        summary: 'Help articles grouped by topic; q searches titles in the asked language (case-insensitive)',
        querystring: helpListQuery,
        response: apiResponse(helpList),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      return ok(await service.list(locale, request.query.q), locale);
    },
  );

  app.get(
    '/help/:id',
    { schema: { tags, summary: 'One help article with its body as HTML', params: idParams, response: apiResponse(helpArticle) } },
    async (request) => {
      const locale = requestLocale(request);
      return ok(await service.article(request.params.id, locale), locale);
    },
  );

  app.get(
    '/admin/help',
    { ...operator, schema: { ...admin, summary: 'Every topic with its articles’ titles', response: apiResponse(adminHelpTree) } },
    async (request) => ok(await service.tree(), requestLocale(request)),
  );

  app.get(
    '/admin/help/articles/:id',
    {
      ...operator,
      schema: { ...admin, summary: 'One article, Markdown and HTML', params: idParams, response: apiResponse(adminHelpArticle) },
    },
    async (request) => ok(await service.oneArticle(request.params.id), requestLocale(request)),
  );

  app.post(
    '/admin/help/topics/create',
    {
      ...operator,
      schema: {
        ...admin,
        summary: 'Create a topic (1001 when the key is taken)',
        body: helpTopicInput,
        response: apiResponse(adminHelpTopic),
      },
    },
    async (request) => ok(await service.createTopic(request.user, request.body), requestLocale(request)),
  );

  app.post(
    '/admin/help/topics/:id/update',
    {
      ...operator,
      schema: { ...admin, summary: 'Replace a topic', params: idParams, body: helpTopicInput, response: apiResponse(adminHelpTopic) },
    },
    async (request) => ok(await service.updateTopic(request.user, request.params.id, request.body), requestLocale(request)),
  );

  app.post(
    '/admin/help/topics/:id/delete',
    {
      ...operator,
      schema: {
        ...admin,
        summary: 'Delete an empty topic (3007 while it has articles)',
        params: idParams,
        body: contentReasonBody,
        response: apiResponse(deletedData),
      },
    },
    async (request) => ok(await service.deleteTopic(request.user, request.params.id, request.body.reason), requestLocale(request)),
  );

  app.post(
    '/admin/help/articles/create',
    {
      ...operator,
      schema: {
        ...admin,
        summary: 'Create an article (4004 unknown topicId)',
        body: helpArticleInput,
        response: apiResponse(adminHelpArticle),
      },
    },
    async (request) => ok(await service.createArticle(request.user, request.body), requestLocale(request)),
  );

  app.post(
    '/admin/help/articles/:id/update',
    {
      ...operator,
      schema: {
        ...admin,
        summary: 'Replace an article',
        params: idParams,
        body: helpArticleInput,
        response: apiResponse(adminHelpArticle),
      },
    },
    async (request) => ok(await service.updateArticle(request.user, request.params.id, request.body), requestLocale(request)),
  );

  app.post(
    '/admin/help/articles/:id/delete',
    {
      ...operator,
      schema: { ...admin, summary: 'Delete an article', params: idParams, body: contentReasonBody, response: apiResponse(deletedData) },
    },
    async (request) => ok(await service.deleteArticle(request.user, request.params.id, request.body.reason), requestLocale(request)),
  );
}
