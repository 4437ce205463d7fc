import { Readable } from 'node:stream';
import { apiResponse, idParams, turnoverBody, turnoverDetail, turnoverExportQuery, turnoverPage } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { csvHeader, csvLine, UTF8_BOM } from './csv.ts';
import { TurnoverService } from './service.ts';

const tags = ['turnover'];
const signedIn = [{ token: [] }];

export async function turnoverRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new TurnoverService(app.deps.database);

  app.post(
    '/getTurnover',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: signedIn,
        summary: "The user's statement: every posting on their accounts, newest first",
        description:
          'type is the entry kind with transfers split into transfer_in / transfer_out; amount is signed; ' +
          'from is inclusive, to exclusive (ISO 8601).',
        body: turnoverBody,
        response: apiResponse(turnoverPage),
      },
    },
    async (request) => ok(await service.page(request.user.id, request.body), requestLocale(request)),
  );

  app.get(
    '/getAccountantTurnover/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: signedIn,
        summary: 'One statement line with its journal entry and business record (4004 if not the user’s)',
        params: idParams,
        response: apiResponse(turnoverDetail),
      },
    },
    async (request) => {
      const detail = await service.detail(request.user.id, request.params.id);
      if (!detail) throw notFound();
      return ok(detail, requestLocale(request));
    },
  );

  app.get(
    '/turnover/export.csv',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: signedIn,
        summary: 'The statement as CSV (UTF-8 with BOM), with the rate and fee of each swap',
        description: 'Same filters as getTurnover; headers follow accept-language. Errors answer the JSON envelope.',
        querystring: turnoverExportQuery,
      },
    },
    async (request, reply) => {
      const locale = requestLocale(request);
      const lines = service.lines(request.user.id, request.query);
      async function* csv() {
        yield UTF8_BOM + csvHeader(locale);
        for await (const item of lines) yield csvLine(item, locale);
      }
      const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="coffer-statement-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv()));
    },
  );
}
