import type { Database } from '../db/client.ts';

/**
 * Bugs the simulator can plant for one run, to show that its checks find them. Each wraps a
 * real worker's tick (nothing under chain/ knows) and does, once, what a buggy worker would
 * have written at the end of that tick:
 *  - pay-and-refund: a withdrawal whose payout is mined is also refunded (money created; the
 *    case the old inequality reconciliation missed);
 *  - skipped-nonce: the hot wallet's next nonce jumps by one (a nonce handed out and never
 *    signed: every later payout is stuck behind the gap);
 *  - double-sweep: a second open sweep of a deposit address that is being swept.
 */
export const PLANTED_BUGS = ['pay-and-refund', 'skipped-nonce', 'double-sweep'] as const;
export type PlantedBug = (typeof PLANTED_BUGS)[number];

interface Worker {
  name: string;
  tick(): Promise<unknown>;
}

const AFTER: Record<PlantedBug, { worker: string; sql: string }> = {
  'pay-and-refund': {
    worker: 'sender',
    sql: `select coffer_withdraw_refund(w.id, 'failed', 'planted bug', '{confirming}', null)
          from (select id from withdrawals where status = 'confirming' and $1::int is not null order by id limit 1) w`,
  },
  'skipped-nonce': {
    worker: 'sender',
    sql: `update chain_nonces set next_nonce = next_nonce + 1
          where chain_id = $1 and exists (select 1 from withdrawals where status = 'broadcast') returning 1`,
  },
  'double-sweep': {
    worker: 'sweeper',
    sql: `insert into sweeps (network_id, deposit_address, address_index, amount, status)
          select s.network_id, s.deposit_address, s.address_index, s.amount, case when n.native then 'ready' else 'gas_required' end
          from sweeps s join networks n on n.id = s.network_id
          where s.status not in ('done', 'failed') and n.chain_id = $1 order by s.id limit 1 returning 1`,
  },
};

/** The workers with `bug` planted (unchanged without one). */
export function plant(bug: PlantedBug | undefined, workers: Worker[], database: Database, chainId: number): Worker[] {
  if (!bug) return workers;
  const { worker, sql } = AFTER[bug];
  let done = false;
  return workers.map((w) =>
    w.name !== worker
      ? w
      : {
          name: w.name,
          async tick() {
            const result = await w.tick();
            if (!done) {
              const rows = await database.sql.query(sql, [chainId]);
              done = rows.length > 0;
            }
            return result;
          },
        },
  );
}
