import { WITHDRAW_WAIT_REASONS } from '@coffer/contract';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/client.ts';

type Answer<T> = { ok: true; value: T } | { ok: false };
type Source = <T>(name: string, load: () => Promise<T>) => () => Answer<T>;

/**
 * Payouts the sender could not sign yet, or (fee bumps used up) stopped replacing, by why
 * (withdrawals.wait_reason: fees above the network's cap, the hot wallet short, the node down) and the oldest wait:
 * what users see as "waiting for network fees to fall", for operators to alert on
 * (docs/operations.md).
 */
export function withdrawalWaitGauges(database: Database, registers: Registry[], source: Source): void {
  const waits = source('withdrawal_waits', () =>
    database.sql.query<{ reason: string; n: number; oldest: number }>(
      `select wait_reason as reason, count(*)::int as n, extract(epoch from now() - min(wait_since))::float8 as oldest
         from withdrawals where status in ('queued', 'broadcast') and wait_reason is not null group by wait_reason`,
    ),
  );
  new Gauge({
    name: 'coffer_withdrawals_waiting',
    help: 'Withdrawals waiting, by reason (fees_high, hot_wallet_short, node_unavailable, fee_bumps_exhausted)',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      const answer = waits();
      if (!answer.ok) return;
      for (const reason of WITHDRAW_WAIT_REASONS) this.set({ reason }, Number(answer.value.find((r) => r.reason === reason)?.n ?? 0));
    },
  });
  new Gauge({
    name: 'coffer_withdrawals_waiting_oldest_seconds',
    help: 'Seconds the longest-waiting withdrawal has waited, by reason (absent when none waits for it)',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      const answer = waits();
      if (answer.ok) for (const row of answer.value) this.set({ reason: row.reason }, Number(row.oldest));
    },
  });
}
