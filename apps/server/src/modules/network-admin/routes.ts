import { adminNetworkList, apiResponse, idParams, networkUpdateBody, networkUpdateData } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import type { NetworkChangeContext } from './service.ts';
import { listAdminNetworks, updateNetwork } from './service.ts';

const tags = ['admin'];
const security = [{ token: [] }];
const ROLE = 'Operators only: HTTP 403 for a signed-in user, 2001 signed out.';

/** Operators: every network setting, and the audited change of them (docs/decisions/041). */
export async function networkAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, chain } = app.deps;
  const guard = { preHandler: app.requireOperator };
  const ctx: NetworkChangeContext = {
    clients: (chainId) => chain.liveFor(chainId)?.adapter.client,
    servedChainIds: chain.chainIds,
    hotAddress: chain.hotAddress,
  };

  app.get(
    '/admin/networks',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'Every network with all its settings (limits, fees, confirmations, contract, custody)',
        description: ROLE,
        response: apiResponse(adminNetworkList),
      },
    },
    async (request) => ok(await listAdminNetworks(database, chain.chainIds), requestLocale(request)),
  );

  app.post(
    '/admin/networks/:id',
    {
      ...guard,
      schema: {
        tags,
        security,
        summary: 'Change some of a network’s settings, with a reason (audited; in effect at the next request and chain tick)',
        description:
          `${ROLE} Only the settings named in \`changes\` change; null clears an optional one. ` +
          'Errors: 3027 a setting out of range or inconsistent (named), 3028 a non-local network without a gas price cap, ' +
          '3029 a cold address the server holds the key of, 3030 a token contract that does not answer decimals() ' +
          'with the network’s token decimals, 4004 unknown network.',
        params: idParams,
        body: networkUpdateBody,
        response: apiResponse(networkUpdateData),
      },
    },
    async (request) =>
      ok(await updateNetwork(database, ctx, operatorOf(request.user), request.params.id, request.body), requestLocale(request)),
  );
}
