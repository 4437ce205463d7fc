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
import { formatAmount } from '../../ledger/amounts.ts';
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
        summary: 'Operators: withdrawals not yet final, oldest first, with their age',
        response: apiResponse(openWithdrawalList),
      },
    },
    async (request) => {
      const rows = await database.sql.query<{
        id: number;
        user_id: number;
        network_id: number;
        code: string;
        amount: string;
        status: 'review';
        tx_hash: string | null;
        age: number;
        wait_reason: 'fees_high' | null;
        wait_age: number | null;
      }>(
        `select w.id, w.user_id, w.network_id, c.code, w.amount::text, w.status, w.tx_hash,
                extract(epoch from now() - w.created_at)::int as age, w.wait_reason,
                extract(epoch from now() - w.wait_since)::int as wait_age
         from withdrawals w join currencies c on c.id = w.currency_id
         where w.status in ('review', 'queued', 'broadcast', 'confirming') order by w.id limit 500`,
      );
      return ok(
        rows.map((r) => ({
          id: r.id,
          userId: r.user_id,
          networkId: r.network_id,
          code: r.code,
          amount: formatAmount(r.amount),
          status: r.status,
          txHash: r.tx_hash,
          ageSeconds: Number(r.age),
          waitReason: r.wait_reason,
          waitSeconds: r.wait_age === null ? null : Number(r.wait_age),
        })),
        requestLocale(request),
      );
    },
  );
}
