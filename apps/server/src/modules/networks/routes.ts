import { apiResponse, configsData, networkList } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { listNetworks } from './service.ts';

/** Public: the networks each currency moves on, and the settings the app needs at start. */
export async function networkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, config, chain } = app.deps;

  app.get(
    '/currency/onchain',
    {
      schema: {
        tags: ['currency'],
        summary: 'Networks of every currency on the chains this server serves (public)',
        description: 'payoutsFrozen: withdrawals on the network wait for an operator (incident or reconciliation drift).',
        response: apiResponse(networkList),
      },
    },
    async (request) => {
      const list = await listNetworks(database, chain.chainIds);
      return ok(
        list.map(({ reviewThreshold: _, ...n }) => n),
        requestLocale(request),
      );
    },
  );

  app.get(
    '/configs',
    {
      schema: {
        tags: ['configs'],
        summary: 'Public settings of this Coffer (product, networks, faucet)',
        response: apiResponse(configsData),
      },
    },
    async (request) => {
      const list = await listNetworks(database, chain.chainIds);
      return ok(
        {
          productName: config.PRODUCT_NAME,
          supportEmail: config.SUPPORT_EMAIL,
          faucet: chain.faucet !== undefined,
          minAppVersion: config.MIN_APP_VERSION ?? null,
          networks: list.map((n) => ({ id: n.id, code: n.code, name: n.name, confirmations: n.confirmations })),
        },
        requestLocale(request),
      );
    },
  );
}
