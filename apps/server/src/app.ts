import crypto from 'node:crypto';
import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { ErrorCode, type ErrorCodeValue, type SecurityEventKind } from '@coffer/contract';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { fastifyTrustProxy } from './config.ts';
import type { AppDeps } from './core/deps.ts';
import { type BizError, isBizError } from './core/errors.ts';
import { messageFor, requestLocale } from './core/locale.ts';
import { LOG_REDACT_PATHS, sanitizeError } from './core/log.ts';
import { databaseRateLimitStore, scheduleRateLimitSweep } from './core/rate-limits.ts';
import { CONSOLE_PREFIX, consolePolicy, installSecurityHeaders } from './core/security-headers.ts';
import { operatorSessionPolicy, requireSession, type SessionUser } from './core/session.ts';
import { installMetrics } from './metrics/plugin.ts';
import { registerModules } from './modules/index.ts';
import { checkOperator } from './modules/operators/index.ts';
import { uploadFileRoutes } from './modules/content/routes.ts';
import { notifySecurityEvent, type SecurityEventClient, withAntiPhishing } from './modules/security/index.ts';

/** Avatars may be small data: URLs; everything else is tiny. */
const BODY_LIMIT_BYTES = 512 * 1024;
/** Longest path parameter the router matches (ids have at most 16 digits); longer answers 414. */
const MAX_PARAM_LENGTH = 100;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** preHandler: resolves X-Token into request.user or answers 2001. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: a signed-in operator with a second factor and the route's role, or HTTP 403 (modules/operators). */
    requireOperator: (request: FastifyRequest) => Promise<void>;
    /** Mails the user about a security event in their language; never throws (modules/security). */
    notifySecurityEvent: (userId: number, kind: SecurityEventKind, client?: SecurityEventClient) => Promise<void>;
  }
  interface FastifyRequest {
    user: SessionUser;
  }
}

export type App = FastifyInstance;

export interface BuildOptions {
  /** false: no logging at all (tests). */
  logger?: boolean;
  /** Where the log goes (default stdout); tests capture it. */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(given: AppDeps, opts: BuildOptions = {}) {
  // Every mail to a user carries their anti-phishing phrase, added here once (modules/security).
  const deps: AppDeps = { ...given, mailer: withAntiPhishing(given.mailer, given.database.db) };
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: deps.config.LOG_LEVEL,
            // Credentials never reach the log, should a header ever be logged (see core/log.ts).
            redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
            ...(opts.logStream && { stream: opts.logStream }),
          },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(deps.config.TRUST_PROXY),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised before a route is found, and those of Node's HTTP parser, answer the
    // envelope too (docs/product.md §5.3), not Fastify's {error, message, statusCode}.
    frameworkErrors: (error, request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
      const code = status === 500 ? ErrorCode.INTERNAL : ErrorCode.INVALID_PARAMS;
      const detail = status === 414 ? 'path too long' : status === 400 ? 'url' : undefined;
      return (reply as FastifyReply)
        .status(status)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ code, message: messageFor(code, requestLocale(request), detail), data: null }));
    },
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  app.decorateRequest('user', null as unknown as SessionUser);
  // Operators' sessions are shorter and end when idle, on every request of theirs (decision 045).
  const operatorSessions = operatorSessionPolicy(deps.config);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    request.user = await requireSession(deps.database.db, request, operatorSessions);
  });
  app.decorate('notifySecurityEvent', (userId: number, kind: SecurityEventKind, client?: SecurityEventClient) =>
    notifySecurityEvent(deps, userId, kind, client, app.log),
  );
  // The one operator guard: second factor enrolled and passed, and the role the route's entry
  // in modules/operators/permissions.ts names (a route missing there is refused to everyone).
  app.decorate('requireOperator', async (request: FastifyRequest) => {
    request.user = await requireSession(deps.database.db, request, operatorSessions);
    await checkOperator(deps.database, request);
  });

  checkSessionBeforeBody(app);
  installErrorHandling(app);
  installSecurityHeaders(app, { webDistDir: deps.config.WEB_DIST_DIR, hsts: deps.config.HSTS });
  installMetrics(app);

  // Counts live in the database: shared by every process, kept across restarts.
  await app.register(fastifyRateLimit, {
    global: false,
    store: databaseRateLimitStore(deps.database.sql),
    // Thrown to the error handler, which answers the envelope with this status.
    errorResponseBuilder: (_request, context) => new RateLimited(context.statusCode, context.ttl),
  });
  scheduleRateLimitSweep(app, deps.database.sql);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Coffer API', version: '0.1.0', description: 'Every body is the envelope {code, message, data}.' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.get('/api/health', { schema: { hide: true } }, async () => ({
    code: 0,
    message: 'ok',
    data: { database: deps.database.kind },
  }));

  await app.register(registerModules, { prefix: '/api' });
  await app.register(uploadFileRoutes);
  await serveConsole(app, deps.config.CONSOLE_DIST_DIR, deps.config.HSTS);
  await serveWebApp(app, deps.config.WEB_DIST_DIR);
  return app;
}

/**
 * Routes name `app.authenticate` / `app.requireOperator` as a preHandler, which Fastify runs
 * after body validation; docs/product.md §6 wants a signed-out caller told 2001 whatever its body. Every
 * route declared after this hook gets those checks moved to preValidation (before the schema).
 */
function checkSessionBeforeBody(app: FastifyInstance) {
  const sessionChecks = new Set<unknown>([app.authenticate, app.requireOperator]);
  app.addHook('onRoute', (route) => {
    const handlers = route.preHandler === undefined ? [] : [route.preHandler].flat();
    const checks = handlers.filter((h) => sessionChecks.has(h));
    if (checks.length === 0) return;
    const rest = handlers.filter((h) => !sessionChecks.has(h));
    const earlier = route.preValidation === undefined ? [] : [route.preValidation].flat();
    route.preValidation = [...checks, ...earlier] as typeof route.preValidation;
    route.preHandler = rest.length ? (rest as typeof route.preHandler) : undefined;
  });
}

function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const locale = requestLocale(request);
    // Error bodies carry data: null, which the route's success schema need not allow.
    reply.serializer(JSON.stringify);
    // A custom serializer sets no content type of its own.
    const send = (status: number, code: ErrorCodeValue, detail?: BizError['detail'], data: unknown = null) =>
      reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send({ code, message: messageFor(code, locale, detail), data });

    if (isBizError(error)) return send(error.httpStatus, error.bizCode, error.detail);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = [...new Set(error.validation.map((v) => fieldName(v.instancePath, v.params)))];
      return send(200, ErrorCode.INVALID_PARAMS, fields.join(', '));
    }
    if (error instanceof RateLimited) {
      return send(error.statusCode, ErrorCode.TOO_MANY_REQUESTS, undefined, { retryAfterMs: error.retryAfterMs });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(413, ErrorCode.INVALID_PARAMS, 'body too large');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, wrong content type and the like: the client's fault, said plainly.
      return send(200, ErrorCode.INVALID_PARAMS, 'body');
    }
    // Only the sanitized error: a driver error carries the statement's parameters (hashes,
    // other users' token hashes, e-mails), which must never be written to the log. Not under
    // `err`: pino's error serializer would fold it back into its own shape.
    request.log.error({ error: sanitizeError(error) }, 'unhandled error');
    return send(500, ErrorCode.INTERNAL);
  });
}

/** What the rate limiter throws when a limit is exceeded (HTTP 429). */
class RateLimited extends Error {
  constructor(
    readonly statusCode: number,
    readonly retryAfterMs: number,
  ) {
    super('rate limited');
  }
}

/**
 * Requests Node's HTTP parser refuses never reach Fastify: headers or URL over the size
 * limit (431), malformed requests (400), slow requests (408). The request's headers are
 * not known, so the message is in the default language.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request timeout']
        : [400, 'request'];
  const body = JSON.stringify({
    code: ErrorCode.INVALID_PARAMS,
    message: messageFor(ErrorCode.INVALID_PARAMS, 'zh-CN', detail),
    data: null,
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function fieldName(instancePath: string, params: unknown): string {
  const fromPath = instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (fromPath) return fromPath;
  const missing = (params as { missingProperty?: string } | undefined)?.missingProperty;
  return missing ?? 'body';
}

/** Bytes of random in each console page's style nonce (CSP wants at least 128 bits). */
const CONSOLE_NONCE_BYTES = 18;
const CONSOLE_NONCE_PLACEHOLDER = '__COFFER_CSP_NONCE__';

/**
 * The operator console (apps/console) at /console/: its hashed assets from disk, every other
 * path its index.html (history fallback) with a fresh style nonce, which its CSP names. The
 * pages are public like any bundle; every API call they make checks the operator role.
 */
async function serveConsole(app: FastifyInstance, distDir: string, tls: boolean) {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) return;
  await app.register(fastifyStatic, {
    root: path.join(distDir, 'assets'),
    prefix: `${CONSOLE_PREFIX}/assets/`,
    decorateReply: false,
    wildcard: false,
    preCompressed: true,
    index: false,
    // Hashed file names: a file never changes.
    setHeaders: (reply) => reply.header('cache-control', 'public, max-age=31536000, immutable'),
  });
  let cached: { key: string; html: string } | undefined;
  const page = () => {
    // Read again after a rebuild while the server runs (the asset names change).
    const stat = fs.statSync(indexFile);
    const key = `${stat.mtimeMs}:${stat.size}`;
    if (cached?.key !== key) cached = { key, html: fs.readFileSync(indexFile, 'utf8') };
    return cached.html;
  };
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith(`${CONSOLE_PREFIX}/assets/`)) {
      const locale = requestLocale(request);
      return reply.status(404).send({ code: ErrorCode.NOT_FOUND, message: messageFor(ErrorCode.NOT_FOUND, locale), data: null });
    }
    const nonce = crypto.randomBytes(CONSOLE_NONCE_BYTES).toString('base64');
    reply.header('cache-control', 'no-store');
    reply.header('content-security-policy', consolePolicy(nonce, tls));
    return reply.type('text/html; charset=utf-8').send(page().replaceAll(CONSOLE_NONCE_PLACEHOLDER, nonce));
  };
  app.get(CONSOLE_PREFIX, { schema: { hide: true } }, (_request, reply) => reply.redirect(`${CONSOLE_PREFIX}/`));
  app.get(`${CONSOLE_PREFIX}/*`, { schema: { hide: true } }, handler);
}

/**
 * The web app's files with fixed names that say which build is current (service worker and
 * manifest): revalidated on every use, so a deploy reaches installed apps (docs/decisions/025-pwa.md).
 */
const WEB_APP_UNHASHED = new Set(['index.html', 'sw.js', 'manifest.webmanifest']);

/** The built web app from the same port, with history fallback for client routes. */
async function serveWebApp(app: FastifyInstance, distDir: string) {
  const indexFile = path.join(distDir, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      // The web build writes .br and .gz beside each asset; serve them to clients that accept them.
      preCompressed: true,
      index: false,
      setHeaders: (reply, filePath) => {
        // Hashed assets never change; index.html must always be fresh.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (WEB_APP_UNHASHED.has(path.basename(filePath).replace(/\.(br|gz)$/, ''))) {
          reply.header('cache-control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const locale = requestLocale(request);
    if (request.url.startsWith('/api') || !hasWeb || request.method !== 'GET') {
      return reply.status(404).send({ code: ErrorCode.NOT_FOUND, message: messageFor(ErrorCode.NOT_FOUND, locale), data: null });
    }
    const file = request.url.split('?')[0]!.replace(/^\/+/, '');
    if (file && !file.includes('..') && fs.existsSync(path.join(distDir, file)) && fs.statSync(path.join(distDir, file)).isFile()) {
      return reply.sendFile(file);
    }
    reply.header('cache-control', 'no-cache');
    return reply.type('text/html').sendFile('index.html');
  });
}
