import {
  adminSwapPairList,
  apiResponse,
  houseLimitList,
  houseLimitSetBody,
  houseLimitSetData,
  idParams,
  swapPairUpdateBody,
  swapPairUpdateData,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import { ROLE, security, tags } from './route-docs.ts';
import { listHouseLimits, listPairs, setHouseLimitAsOperator, updatePair } from './swap-settings.ts';

/** The swap desk's settings: each pair's rate, spread, fee and limits; the house limit per currency (writes audited). */
export async function consoleSwapSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.get(
    '/admin/swap/pairs',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Every swap pair with its operator settings',
        description: ROLE,
        response: apiResponse(adminSwapPairList),
      },
    },
    async (request) => ok(await listPairs(database), requestLocale(request)),
  );

  app.post(
    '/admin/swap/pairs/:id',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Set a pair's mid rate, spread, fee, limits and whether it is enabled (the next quote uses them)",
        description: `${ROLE} 3002 a value out of range (min above max, more decimals than the currency), 4004 unknown pair.`,
        params: idParams,
        body: swapPairUpdateBody,
        response: apiResponse(swapPairUpdateData),
      },
    },
    async (request) => ok(await updatePair(database, operatorOf(request.user), request.params.id, request.body), requestLocale(request)),
  );

  app.get(
    '/admin/swap/house-limits',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Per currency: the house limit, and the house account's balance and floor",
        description: ROLE,
        response: apiResponse(houseLimitList),
      },
    },
    async (request) => ok(await listHouseLimits(database), requestLocale(request)),
  );

  app.post(
    '/admin/swap/house-limits',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Set how much of a currency the house may owe (floor −limit, or its balance if it owes more)',
        description: `${ROLE} 3003 unknown currency; changed false when it was already so (nothing recorded).`,
        body: houseLimitSetBody,
        response: apiResponse(houseLimitSetData),
      },
    },
    async (request) => ok(await setHouseLimitAsOperator(database, operatorOf(request.user), request.body), requestLocale(request)),
  );
}
