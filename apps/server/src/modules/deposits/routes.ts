import {
  apiResponse,
  createAddressBody,
  depositAddress,
  depositAddressList,
  depositListBody,
  depositPage,
  depositRecord,
  ErrorCode,
  faucetBody,
  faucetData,
  idParams,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { depositAddressFor, depositAddressList as listAddresses, depositInfo, depositPage as listDeposits } from './service.ts';

const tags = ['deposit'];
const security = [{ token: [] }];

/** A faucet call sends real test coins: a few per minute are plenty for a newcomer. */
const FAUCET_PER_MINUTE = 5;

export async function depositRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, chain, config } = app.deps;

  app.post(
    '/deposit/createAddress',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The user's deposit address for a network (allocated once, same answer every time)",
        description: 'Errors: 3003 network unknown, disabled or not of this currency; 3063 no node serves its chain here.',
        body: createAddressBody,
        response: apiResponse(depositAddress),
      },
    },
    async (request) => {
      const { currencyId, networkId } = request.body;
      return ok(await depositAddressFor(database, chain.addresses, request.user.id, currencyId, networkId), requestLocale(request));
    },
  );

  app.get(
    '/deposit/getAddressList',
    {
      preHandler: app.authenticate,
      schema: { tags, security, summary: "The user's deposit addresses", response: apiResponse(depositAddressList) },
    },
    async (request) => ok(await listAddresses(database, chain.addresses, request.user.id), requestLocale(request)),
  );

  app.post(
    '/deposit/getDepositList',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The user's deposits, newest first, with confirmations n/N",
        body: depositListBody,
        response: apiResponse(depositPage),
      },
    },
    async (request) => ok(await listDeposits(database, request.user.id, request.body), requestLocale(request)),
  );

  app.get(
    '/deposit/getDepositInfo/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One deposit of the user (4004 otherwise)',
        params: idParams,
        response: apiResponse(depositRecord),
      },
    },
    async (request) => ok(await depositInfo(database, request.user.id, request.params.id), requestLocale(request)),
  );

  app.post(
    '/deposit/faucet',
    {
      preHandler: app.authenticate,
      config: { rateLimit: config.RATE_LIMIT ? { max: FAUCET_PER_MINUTE, timeWindow: 60_000 } : false },
      schema: {
        tags,
        security,
        summary: 'Local chain only: send test coins to the user’s deposit address',
        description: 'Exists only while the server runs its embedded local chain; elsewhere 3003.',
        body: faucetBody,
        response: apiResponse(faucetData),
      },
    },
    async (request) => {
      const faucet = chain.faucet;
      if (!faucet) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'faucet');
      const [net] = await database.sql.query<{ currency_id: number }>('select currency_id from networks where id = $1', [
        request.body.networkId,
      ]);
      if (!net) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'networkId');
      const address = await depositAddressFor(database, chain.addresses, request.user.id, net.currency_id, request.body.networkId);
      const sent = await faucet(request.body.networkId, address.address);
      return ok({ ...sent, address: address.address }, requestLocale(request));
    },
  );
}
