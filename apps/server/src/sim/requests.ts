import type { AdjustInput } from '../ledger/adjust.ts';
import type { SimContext } from './context.ts';
import type { Writer } from './faults.ts';
import { decimal, fromMinor, units } from './money.ts';
import type { AdjustReq, CurrencyInfo, HttpReq, Req, SimUser, SwapReq, TransferReq } from './types.ts';

/** Upper bounds of random amounts, in whole units of the currency (a few per balance). */
const TYPICAL_MAX: Record<string, string> = { USDT: '300', USDC: '300', BTC: '0.05' };

export function randomAmount(ctx: SimContext, currency: CurrencyInfo): string {
  const max = units(TYPICAL_MAX[currency.code]!) / 10n ** BigInt(18 - currency.decimals);
  return fromMinor(ctx.rnd.big(1n, max), currency.decimals);
}

export const newKey = (ctx: SimContext) => `sim-${ctx.seed}-key-${++ctx.sequence.key}`;

/** A transfer by uid or by email, keyed four times in five; a random amount unless given. */
export function newTransfer(ctx: SimContext, from: SimUser, to: SimUser, currency: CurrencyInfo, amount?: string): TransferReq {
  const chosenAmount = amount ?? randomAmount(ctx, currency);
  return {
    kind: 'transfer',
    from,
    to,
    byEmail: ctx.rnd.chance(50),
    currencyId: currency.id,
    amount: chosenAmount,
    memo: `sim ${ctx.seed}.${++ctx.sequence.memo}`,
    key: ctx.rnd.chance(80) ? newKey(ctx) : null,
  };
}

/** A swap either way between USDT and USDC, keyed four times in five. */
export function newSwap(ctx: SimContext, user: SimUser, amount?: string): SwapReq {
  const { usdt, usdc } = ctx.world;
  const [from, to] = ctx.rnd.chance(50) ? [usdt, usdc] : [usdc, usdt];
  // 1 to 150 whole units, up to 6 decimals: inside the pair's limits.
  return {
    kind: 'swap',
    user,
    fromCurrencyId: from.id,
    toCurrencyId: to.id,
    amount: amount ?? fromMinor(ctx.rnd.big(1_000_000n, 150_000_000n), 6),
    key: ctx.rnd.chance(80) ? newKey(ctx) : null,
  };
}

/** Up to `n` requests over disjoint users (outcomes independent of their order). */
export function burstOf(ctx: SimContext, n: number, only?: Writer): HttpReq[] {
  const { rnd, model, world } = ctx;
  const free = rnd.sample(world.people, world.people.length);
  const out: HttpReq[] = [];
  while (out.length < n && free.length > 0) {
    const kind: Writer = only ?? (rnd.chance(65) ? 'transfer' : 'swap');
    // Some overdraw (3001 inside a batch: refused in its subtransaction, kept under its key).
    if (kind === 'transfer' && free.length >= 2) {
      const [from, to, currency] = [free.pop()!, free.pop()!, rnd.pick(world.currencies)];
      const over = rnd.chance(12) ? decimal(model.balance(from.uid, currency.id) + units(randomAmount(ctx, currency))) : undefined;
      out.push(newTransfer(ctx, from, to, currency, over));
    } else if (kind === 'swap') {
      const r = newSwap(ctx, free.pop()!);
      if (rnd.chance(12)) r.amount = decimal(model.balance(r.user.uid, r.fromCurrencyId) + units('0.000001'));
      out.push(r);
    } else break;
  }
  return out;
}

/** Sometimes one keyed request of a burst twice, at a random place: a concurrent duplicate delivery. */
export function withTwin(ctx: SimContext, reqs: HttpReq[]): HttpReq[] {
  const { rnd } = ctx;
  if (!rnd.chance(30)) return reqs;
  const r = rnd.pick(reqs);
  r.key ??= newKey(ctx);
  const out = [...reqs];
  out.splice(rnd.int(out.length + 1), 0, r);
  return out;
}

/** The JSON body the API takes for a request. */
export function bodyOf(r: HttpReq): Record<string, unknown> {
  if (r.kind === 'swap') return { fromCurrencyId: r.fromCurrencyId, toCurrencyId: r.toCurrencyId, amount: r.amount };
  return { ...(r.byEmail ? { email: r.to.email } : { uid: r.to.uid }), currencyId: r.currencyId, amount: r.amount, memo: r.memo };
}

/** An adjustment as the route and the CLI hand it to adjustBalance. */
export function adjustInput(operator: SimUser, r: AdjustReq): AdjustInput {
  return {
    user: { uid: r.user.uid },
    currency: r.currencyId,
    amount: r.amount,
    direction: r.direction,
    reason: r.reason,
    actor: operator.email,
    actorUserId: operator.uid,
    idempotencyKey: r.key,
  };
}

/** A request in one line, for divergence messages. */
export function describe(ctx: SimContext, r: Req): string {
  const code = (id: number) => ctx.world.byId.get(id)!.code;
  if (r.kind === 'transfer') return `transfer ${r.amount} ${code(r.currencyId)} ${r.from.uid}->${r.to.uid} key ${r.key}`;
  if (r.kind === 'swap') return `swap ${r.amount} ${code(r.fromCurrencyId)}->${code(r.toCurrencyId)} by ${r.user.uid} key ${r.key}`;
  return `adjust ${r.direction} ${r.amount} ${code(r.currencyId)} of ${r.user.uid} key ${r.key}`;
}
