import {
  apiResponse,
  chainIncident,
  chainIncidentList,
  ErrorCode,
  idParams,
  openWithdrawalList,
  resolveIncidentBody,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { openWithdrawals } from './open-withdrawals.ts';
import { stuckPayoutRoutes } from './stuck-routes.ts';

const tags = ['admin'];
const security = [{ token: [] }];

interface RawIncident {
  id: number;
  network_id: number | null;
  kind: string;
  detail: string;
  created_at: Date | string;
  resolved_at: Date | string | null;
}

const toIncident = (r: RawIncident) => ({
  id: r.id,
  networkId: r.network_id ?? 0,
  kind: r.kind,
  detail: r.detail,
  createdAt: new Date(r.created_at).toISOString(),
  resolvedAt: r.resolved_at === null ? null : new Date(r.resolved_at).toISOString(),
});

async function incidents(database: Database, openOnly: boolean) {
  const rows = await database.sql.query<RawIncident>(
    `select id, network_id, kind, detail, created_at, resolved_at from chain_incidents
     where $1::boolean is false or resolved_at is null order by id desc limit 200`,
    [openOnly],
  );
  return rows.map(toIncident);
}

/** Operators: incidents that freeze payouts, and every withdrawal not yet final with its age. */
export async function chainAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;
  await stuckPayoutRoutes(fastify);

  app.get(
    '/admin/chain/incidents',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Operators: chain incidents, newest first (?open=true: only those freezing payouts)',
        querystring: z.object({ open: z.enum(['true', 'false']).optional() }),
        response: apiResponse(chainIncidentList),
      },
    },
    async (request) => ok(await incidents(database, request.query.open === 'true'), requestLocale(request)),
  );

  app.post(
    '/admin/chain/incidents/:id/resolve',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Operators: close an incident after looking into it (lifts its payout freeze)',
        description: 'Errors: 3007 already resolved, 4004 not found.',
        params: idParams,
        body: resolveIncidentBody,
        response: apiResponse(chainIncident),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { resolution } = request.body;
      // The resolution and its audit-trail row (operator_actions) commit together.
      const row = await inTransaction(database, async (q) => {
        const [open] = await q<{ resolved_at: Date | string | null }>('select resolved_at from chain_incidents where id = $1 for update', [
          id,
        ]);
        if (!open) throw new BizError(ErrorCode.NOT_FOUND);
        if (open.resolved_at !== null) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
        const [done] = await q<RawIncident>(
          `update chain_incidents set resolved_at = now(), resolved_by = $2, resolution = $3
           where id = $1 returning id, network_id, kind, detail, created_at, resolved_at`,
          [id, request.user.id, resolution],
        );
        await recordOperatorAction(q, {
          ...operatorOf(request.user),
          action: 'chain.incident.resolve',
          targetType: 'chain_incident',
          targetId: id,
          reason: resolution,
          before: { resolvedAt: null },
          after: { resolvedAt: new Date(done!.resolved_at!).toISOString(), resolution },
        });
        return done!;
      });
      return ok(toIncident(row), requestLocale(request));
    },
  );

  app.get(
    '/admin/withdraw/open',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Operators: withdrawals not yet final, oldest first: destination, user, amount and fee, and the facts of those in review',
        description:
          'At most 500, oldest first. A withdrawal in review carries the facts an operator decides on (account age, first ' +
          'withdrawal to the address, address-book age, credential changes and holds, deposits and withdrawals of the last ' +
          '30 days, two-factor status) and where a four-eyes approval stands (docs/decisions/044).',
        response: apiResponse(openWithdrawalList),
      },
    },
    async (request) => ok(await openWithdrawals(database), requestLocale(request)),
  );
}
