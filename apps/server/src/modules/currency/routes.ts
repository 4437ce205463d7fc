import { balance, balanceList, currencyList, envelope, idParams } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { listBalances, listCurrencies, oneBalance } from './service.ts';

const tags = ['currency'];
const security = [{ token: [] }];
const failure = envelope(z.null()).describe('code != 0: data is null, message says why (in the asked language)');
const answer = <T extends z.ZodTypeAny>(data: T) => ({ 200: z.union([envelope(data), failure]) });

export async function currencyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.get(
    '/currency/list',
    {
      schema: {
        tags,
        summary: 'All currencies (public), in display order; `enabled` says whether they can be used',
        response: answer(currencyList),
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
        response: answer(balance),
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
        response: answer(balanceList),
      },
    },
    async (request) => ok(await listBalances(database, request.user.id), requestLocale(request)),
  );
}
