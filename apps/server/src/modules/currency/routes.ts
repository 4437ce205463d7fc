import { apiResponse, balance, balanceList, currencyList, idParams } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { listBalances, listCurrencies, oneBalance } from './service.ts';

const tags = ['currency'];
const security = [{ token: [] }];

export async function currencyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.get(
    '/currency/list',
    {
      schema: {
        tags,
        summary: 'All currencies (public), in display order; `enabled` says whether they can be used',
        response: apiResponse(currencyList),
      },
    },
    async (request) => ok(await listCurrencies(database), requestLocale(request)),
  );

  app.get(
    '/currency/balance/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The signed-in user's balance in one currency (3003 unknown or disabled)",
        description: 'Amounts are decimal strings in their shortest exact form; total = available + frozen.',
        params: idParams,
        response: apiResponse(balance),
      },
    },
    async (request) => ok(await oneBalance(database, request.user.id, request.params.id), requestLocale(request)),
  );

  app.get(
    '/currency/balances',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The signed-in user's balances in every enabled currency (zero where none yet)",
        response: apiResponse(balanceList),
      },
    },
    async (request) => ok(await listBalances(database, request.user.id), requestLocale(request)),
  );
}
