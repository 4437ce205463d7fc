import { decimal, units } from './money.ts';

/** What the ledger should hold, kept by the simulator from what it asked and was answered. */
export interface RowCounts {
  transfers: number;
  swaps: number;
  adjustments: number;
  /** Journal entries that moved money (refusal is null). */
  entries: number;
  /** Refusals kept under their Idempotency-Key (decision 012): entries without postings. */
  refusals: number;
  postings: number;
  /** operator_actions rows of ledger.adjust: one per adjustment, in its transaction. */
  adjustActions: number;
}

export interface SwapEffect {
  uid: number;
  fromCurrencyId: number;
  toCurrencyId: number;
  fromAmount: string;
  toAmount: string;
  fee: string;
  feeCurrencyId: number;
}

/** `${uid or "system"}:${currencyId}:${kind}`: an account as (user, currency, kind) names it. */
export const accountKey = (uid: number | null, currencyId: number, kind: string) => `${uid ?? 'system'}:${currencyId}:${kind}`;

/**
 * Expected balances of every account (bigint units at scale 18) and expected row counts.
 * Postings mirror what the SQL functions write: a transfer two, an adjustment two (the user
 * and the system adjustments account), a swap four plus the fee's when there is one.
 */
export class Model {
  readonly balances = new Map<string, bigint>();
  readonly rows: RowCounts = { transfers: 0, swaps: 0, adjustments: 0, entries: 0, refusals: 0, postings: 0, adjustActions: 0 };

  balance(uid: number | null, currencyId: number, kind = 'available'): bigint {
    return this.balances.get(accountKey(uid, currencyId, kind)) ?? 0n;
  }

  private add(uid: number | null, currencyId: number, kind: string, amount: bigint) {
    const k = accountKey(uid, currencyId, kind);
    this.balances.set(k, (this.balances.get(k) ?? 0n) + amount);
  }

  transfer(from: number, to: number, currencyId: number, amount: string) {
    const u = units(amount);
    this.add(from, currencyId, 'available', -u);
    this.add(to, currencyId, 'available', u);
    this.rows.transfers++;
    this.rows.entries++;
    this.rows.postings += 2;
  }

  /** user(from) -> house(from), house(to) -> user(to), fee -> fees (coffer_swap_apply, apps/server/sql/functions). */
  swap(s: SwapEffect) {
    const from = units(s.fromAmount);
    const to = units(s.toAmount);
    const fee = units(s.fee);
    this.add(s.uid, s.fromCurrencyId, 'available', -from);
    this.add(null, s.fromCurrencyId, 'house', s.feeCurrencyId === s.fromCurrencyId ? from - fee : from);
    this.add(null, s.toCurrencyId, 'house', -(s.feeCurrencyId === s.toCurrencyId ? to + fee : to));
    this.add(s.uid, s.toCurrencyId, 'available', to);
    if (fee > 0n) this.add(null, s.feeCurrencyId, 'fees', fee);
    this.rows.swaps++;
    this.rows.entries++;
    this.rows.postings += fee > 0n ? 5 : 4;
  }

  /** A signed amount on the user's available balance against the system adjustments account. */
  adjust(uid: number, currencyId: number, signed: string) {
    const u = units(signed);
    this.add(uid, currencyId, 'available', u);
    this.add(null, currencyId, 'adjustments', -u);
    this.rows.adjustments++;
    this.rows.entries++;
    this.rows.postings += 2;
    this.rows.adjustActions++;
  }

  keptRefusal() {
    this.rows.refusals++;
  }

  /**
   * Differences between the model and the database's accounts (every row, and every account
   * the model expects money on), as readable lines; empty when they agree exactly.
   */
  diffBalances(rows: { user_id: number | null; currency_id: number; kind: string; balance: string }[]): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const r of rows) {
      const k = accountKey(r.user_id === null ? null : Number(r.user_id), Number(r.currency_id), r.kind);
      seen.add(k);
      const want = this.balances.get(k) ?? 0n;
      const got = units(String(r.balance));
      if (got !== want) out.push(`account ${k}: database ${decimal(got)}, model ${decimal(want)}`);
    }
    for (const [k, want] of this.balances) {
      if (!seen.has(k) && want !== 0n) out.push(`account ${k}: missing in the database, model ${decimal(want)}`);
    }
    return out;
  }

  diffRows(got: RowCounts): string[] {
    return (Object.keys(this.rows) as (keyof RowCounts)[])
      .filter((k) => Number(got[k]) !== this.rows[k])
      .map((k) => `${k}: database ${got[k]}, model ${this.rows[k]}`);
  }
}
