import { ErrorCode } from '@coffer/contract';
import type { SimContext } from './context.ts';
import type { SwapEffect } from './model.ts';
import { units } from './money.ts';
import { describe } from './requests.ts';
import { type Answer, check, type Known, type Req } from './types.ts';

/** Refusals the ledger keeps under their key (decision 012); adjustments keep none. */
const KEPT = new Set<number>([ErrorCode.INSUFFICIENT_BALANCE, ErrorCode.AMOUNT_OUT_OF_RANGE, ErrorCode.CANNOT_SEND_TO_SELF]);

const decimalsOf = (v: string) => (v.split('.')[1] ?? '').replace(/0+$/, '').length;

/** The answer the model expects for a request sent now (0: done). */
export function predict(ctx: SimContext, r: Req): number {
  const { model, world } = ctx;
  if (r.kind === 'transfer') {
    const currency = world.byId.get(r.currencyId)!;
    const amount = units(r.amount);
    if (r.to.uid === r.from.uid) return ErrorCode.CANNOT_SEND_TO_SELF;
    if (amount <= 0n || decimalsOf(r.amount) > currency.decimals) return ErrorCode.AMOUNT_OUT_OF_RANGE;
    if ((currency.transferMin && amount < units(currency.transferMin)) || (currency.transferMax && amount > units(currency.transferMax)))
      return ErrorCode.AMOUNT_OUT_OF_RANGE;
    return model.balance(r.from.uid, r.currencyId) < amount ? ErrorCode.INSUFFICIENT_BALANCE : 0;
  }
  if (r.kind === 'swap') {
    const pair = world.pairs.find((x) => x.from === r.fromCurrencyId && x.to === r.toCurrencyId)!;
    const amount = units(r.amount);
    if ((pair.min && amount < units(pair.min)) || (pair.max && amount > units(pair.max))) return ErrorCode.AMOUNT_OUT_OF_RANGE;
    return model.balance(r.user.uid, r.fromCurrencyId) < amount ? ErrorCode.INSUFFICIENT_BALANCE : 0;
  }
  if (r.direction === 'debit' && model.balance(r.user.uid, r.currencyId) < units(r.amount)) return ErrorCode.INSUFFICIENT_BALANCE;
  return 0;
}

/** Applies a final outcome to the model: money for a success, a kept refusal for a keyed one. */
export function apply(ctx: SimContext, r: Req, code: number, swap?: SwapEffect): void {
  const { model } = ctx;
  if (code !== 0) {
    if (r.key && r.kind !== 'adjust' && KEPT.has(code)) model.keptRefusal();
    return;
  }
  if (r.kind === 'transfer') model.transfer(r.from.uid, r.to.uid, r.currencyId, r.amount);
  else if (r.kind === 'swap') model.swap(swap!);
  else model.adjust(r.user.uid, r.currencyId, r.direction === 'debit' ? `-${r.amount}` : r.amount);
}

/** The id an answer carries (a transfer's or swap's, or an adjustment's). */
export const idOf = (a: Answer) => (a.data ? Number(a.data.id ?? a.data.adjustmentId) : undefined);

/** Checks an answer against the model's expectation; returns the swap's effect for the model. */
export function expectAnswer(ctx: SimContext, r: Req, a: Answer, code: number, replayed: boolean, known?: Known): SwapEffect | undefined {
  const what = describe(ctx, r);
  check(a.code === code, `${what}: answered ${a.code}, the model expected ${code}${known ? " (the key's first answer)" : ''}`);
  if (code !== 0) {
    check(a.data === null, `${what}: a refusal carried data`);
    return undefined;
  }
  const d = a.data!;
  check(d.replayed === replayed, `${what}: replayed ${d.replayed}, expected ${replayed}`);
  if (known?.id !== undefined) {
    const id = Number(d.id ?? d.adjustmentId);
    check(id === known.id, `${what}: replay answered id ${id}, the key's is ${known.id}`);
  }
  if (r.kind === 'transfer') {
    check(units(String(d.amount)) === units(r.amount), `${what}: answered amount ${d.amount}`);
    check(Number(d.currencyId) === r.currencyId, `${what}: answered currency ${d.currencyId}`);
    check(Number((d.counterparty as { uid: number }).uid) === r.to.uid, `${what}: answered another recipient`);
    return undefined;
  }
  if (r.kind === 'adjust') {
    const signed = r.direction === 'debit' ? -units(r.amount) : units(r.amount);
    check(units(String(d.amount)) === signed, `${what}: answered amount ${d.amount}`);
    return undefined;
  }
  check(units(String(d.fromAmount)) === units(r.amount), `${what}: answered fromAmount ${d.fromAmount}`);
  check(Number(d.fromCurrencyId) === r.fromCurrencyId && Number(d.toCurrencyId) === r.toCurrencyId, `${what}: answered another pair`);
  check(units(String(d.toAmount)) > 0n && units(String(d.fee)) >= 0n, `${what}: answered toAmount ${d.toAmount}, fee ${d.fee}`);
  return {
    uid: r.user.uid,
    fromCurrencyId: r.fromCurrencyId,
    toCurrencyId: r.toCurrencyId,
    fromAmount: String(d.fromAmount),
    toAmount: String(d.toAmount),
    fee: String(d.fee),
    feeCurrencyId: Number(d.feeCurrencyId),
  };
}
