import {
  addressBookAddBody,
  addressBookData,
  addressBookEntry,
  addressBookQuery,
  addressBookWhitelistBody,
  addressCheckBody,
  addressCheckData,
  apiResponse,
  emptyData,
  idParams,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { addEntry, checkDestination, listBook, removeEntry, setWhitelistOnly } from './service.ts';

const tags = ['withdraw'];
/** Address checks per IP and minute (one per pause in typing). */
const ADDRESS_CHECKS_PER_MINUTE = 120;
const security = [{ token: [] }];

/** The withdrawal address book, its "whitelist only" switch, and the address check of /withdraw. */
export async function addressBookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, chain, config } = app.deps;
  const deps = app.deps;

  app.get(
    '/address-book',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The user's saved withdrawal addresses (optionally of one network), the whitelist-only switch and the delay",
        querystring: addressBookQuery,
        response: apiResponse(addressBookData),
      },
    },
    async (request) =>
      ok(await listBook(database, request.user.id, config.ADDRESS_BOOK_DELAY_HOURS, request.query.networkId), requestLocale(request)),
  );

  app.post(
    '/address-book/add',
    {
      preHandler: app.authenticate,
      config: { rateLimit: config.RATE_LIMIT ? { max: 20, timeWindow: 60_000 } : false },
      schema: {
        tags,
        security,
        summary: 'Save a withdrawal address with a label: usable after ADDRESS_BOOK_DELAY_HOURS, at once with the second factor',
        description:
          'Errors: 1001 bad input, 2007 wrong second factor, 3003 unknown network, 3008 invalid address, 3009 book full, ' +
          '3013 a destination that burns funds, 3018 already in the book. The owner is mailed.',
        body: addressBookAddBody,
        response: apiResponse(addressBookEntry),
      },
    },
    async (request) => ok(await addEntry(deps, chain.rules, request.user.id, request.body), requestLocale(request)),
  );

  app.post(
    '/address-book/remove/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Remove a saved address (the owner is mailed)',
        description: 'Errors: 4004 not an entry of this user.',
        params: idParams,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      await removeEntry(deps, request.user.id, request.params.id);
      return ok(null, requestLocale(request));
    },
  );

  app.post(
    '/address-book/whitelist',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: '"Whitelist only": withdrawals only to usable entries (3016 otherwise); off needs the second factor when on',
        description: 'Errors: 2006 second factor needed to turn it off, 2007 wrong second factor.',
        body: addressBookWhitelistBody,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      await setWhitelistOnly(database, request.user.id, request.body.enabled, request.body.totp);
      return ok(null, requestLocale(request));
    },
  );

  app.post(
    '/withdraw/check-address',
    {
      preHandler: app.authenticate,
      // Asked while typing (debounced by the page): generous, but not unbounded.
      config: { rateLimit: config.RATE_LIMIT ? { max: ADDRESS_CHECKS_PER_MINUTE, timeWindow: 60_000 } : false },
      schema: {
        tags,
        security,
        summary:
          'Checks a destination as it is typed: format, checksum, unspendable, known contract, book and whitelist, own deposit, lookalike',
        description: 'problem: what a withdrawal to it would be refused for; warnings: worth a second look, not refused.',
        body: addressCheckBody,
        response: apiResponse(addressCheckData),
      },
    },
    async (request) => ok(await checkDestination(database, chain.rules, request.user.id, request.body), requestLocale(request)),
  );
}
