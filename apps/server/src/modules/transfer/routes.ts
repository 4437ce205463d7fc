import {
  apiResponse,
  ErrorCode,
  idParams,
  RECENT_RECIPIENTS_MAX,
  recentRecipients as recentRecipientsSchema,
  recipient,
  recipientQuery,
  transferByEmailBody,
  transferByUidBody,
  transferPage,
  transferPageBody,
  transferRecord,
  transferResult,
} from '@coffer/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { hashToken, requireSession, tokenFromRequest } from '../../core/session.ts';
import { idempotencyKeyOf } from '../../core/idempotency-key.ts';
import { transferBatcher } from './batcher.ts';
import { type Caller, previewRecipient, recentRecipients, transfer, transferDetails, transferPage as listTransfers } from './service.ts';

const tags = ['transfer'];
const security = [{ token: [] }];
const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });

const TRANSFER_ERRORS =
  'Errors: 2001 not signed in, 3001 insufficient balance, 3002 amount out of range or too many decimals, ' +
  '3003 currency unavailable, 3004 recipient not found, 3005 cannot send to yourself, 3010 Idempotency-Key ' +
  'reused with another body; with two-factor on (decision 033) 2006 without totp or stepUpToken, 2007 wrong or ' +
  'used code, 2008 unknown or used token; 2010 disabled account; 3017 a security hold and an amount above the ' +
  "currency's hold-free one. A replay with the same key and body answers the same transfer (replayed: true) " +
  'and moves no money; a refused one (3001-3005) answers the same refusal again, even once it would succeed.';

export async function transferRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, config } = app.deps;
  // The writer is created here, once, with its configured limit (service.ts then finds it).
  transferBatcher(database, { maxInFlight: config.TRANSFER_BATCHES_IN_FLIGHT });

  /** The hot path resolves the session inside the transfer statement (see service.ts). */
  const callerOf = (request: FastifyRequest): Caller => {
    const token = tokenFromRequest(request);
    if (!token) throw new BizError(ErrorCode.NOT_SIGNED_IN);
    return { tokenHash: hashToken(token), requireSession: () => requireSession(database.db, request) };
  };

  /**
   * The send routes check the session inside the transfer statement, so their body is
   * validated first (attachValidation); a bad body from a signed-out caller must still answer
   * 2001 (docs/product.md §6), which only the rare failing request pays a session lookup for.
   */
  const sessionBeforeBodyError = async (request: FastifyRequest) => {
    if (!request.validationError) return;
    await requireSession(database.db, request);
    throw request.validationError;
  };

  app.post(
    '/transfer/transferByEmail',
    {
      attachValidation: true,
      schema: {
        tags,
        security,
        summary: 'Send to another user named by e-mail',
        description: TRANSFER_ERRORS,
        headers: idempotencyHeader,
        body: transferByEmailBody,
        response: apiResponse(transferResult),
      },
    },
    async (request) => {
      await sessionBeforeBodyError(request);
      const { email, totp, stepUpToken, ...rest } = request.body;
      const input = { ...rest, to: { email }, proof: { totp, stepUpToken } };
      const data = await transfer(database, callerOf(request), input, idempotencyKeyOf(request));
      return ok(data, requestLocale(request));
    },
  );

  app.post(
    '/transfer/transferByUID',
    {
      attachValidation: true,
      schema: {
        tags,
        security,
        summary: 'Send to another user named by uid',
        description: TRANSFER_ERRORS,
        headers: idempotencyHeader,
        body: transferByUidBody,
        response: apiResponse(transferResult),
      },
    },
    async (request) => {
      await sessionBeforeBodyError(request);
      const { uid, totp, stepUpToken, ...rest } = request.body;
      const input = { ...rest, to: { uid }, proof: { totp, stepUpToken } };
      const data = await transfer(database, callerOf(request), input, idempotencyKeyOf(request));
      return ok(data, requestLocale(request));
    },
  );

  app.post(
    '/transfer/clientPage',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The signed-in user's transfers, newest first (sent: out, received: in)",
        body: transferPageBody,
        response: apiResponse(transferPage),
      },
    },
    async (request) => ok(await listTransfers(database, request.user.id, request.body), requestLocale(request)),
  );

  app.get(
    '/transfer/details/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One transfer the signed-in user sent or received (4004 otherwise)',
        params: idParams,
        response: apiResponse(transferRecord),
      },
    },
    async (request) => ok(await transferDetails(database, request.user.id, request.params.id), requestLocale(request)),
  );

  app.get(
    '/transfer/recipient',
    {
      preHandler: app.authenticate,
      config: { rateLimit: config.RATE_LIMIT ? { max: 60, timeWindow: 60_000 } : false },
      schema: {
        tags,
        security,
        summary: 'Preview a recipient by ?email= or ?uid= before sending (3004 not found, 3005 yourself)',
        querystring: recipientQuery,
        response: apiResponse(recipient),
      },
    },
    async (request) => {
      const { email, uid } = request.query;
      const ref = uid !== undefined ? { uid } : { email: email ?? '' };
      return ok(await previewRecipient(database, request.user, ref), requestLocale(request));
    },
  );

  app.get(
    '/transfer/recentRecipients',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: `The people the signed-in user sent transfers to, most recent first (at most ${RECENT_RECIPIENTS_MAX})`,
        description: "Only the caller's own sent transfers count; e-mails masked as in /transfer/recipient. 2001 without a session.",
        response: apiResponse(recentRecipientsSchema),
      },
    },
    async (request) => ok(await recentRecipients(database, request.user.id, RECENT_RECIPIENTS_MAX), requestLocale(request)),
  );
}
