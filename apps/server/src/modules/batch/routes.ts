import { apiResponse, type BatchAnswer, type BatchableGet, batchAnswers, batchQuery } from '@coffer/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';

/**
 * The request headers a batched GET is answered with: who asks (the session), in which
 * language, from which client. Nothing else of the batch request reaches the inner ones.
 */
const FORWARDED_HEADERS = ['x-token', 'accept-language', 'user-agent'] as const;

/**
 * GET /api/batch: a signed-in page's first GETs in one request (decision 069). Each path is
 * answered by its own route through the whole server (hooks, session check, rate limits,
 * errors) as if it had been asked alone from the same client; this route only gathers them.
 */
export async function batchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/batch',
    {
      schema: {
        tags: ['batch'],
        summary: 'Several parameterless GETs answered at once (the first screen of a page)',
        description:
          '`paths` is a comma-separated list of the GETs in BATCHABLE_GETS, each once. `data` maps each path to ' +
          '{status, body}: the HTTP status and the envelope that GET answers alone, refusals included (a missing ' +
          'or expired session is 2001 in the body of each path that needs one).',
        querystring: batchQuery,
        response: apiResponse(batchAnswers),
      },
    },
    async (request) => {
      const answers = await Promise.all(request.query.paths.map((path) => answerAlone(fastify, request, path)));
      return ok(Object.fromEntries(answers), requestLocale(request));
    },
  );
}

/** One GET answered by its own route, with the batch request's session, language and client. */
async function answerAlone(app: FastifyInstance, request: FastifyRequest, path: BatchableGet): Promise<[string, BatchAnswer]> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const response = await app.inject({ method: 'GET', url: `${app.prefix}${path}`, headers, remoteAddress: request.ip });
  return [path, { status: response.statusCode, body: response.json() }];
}
