import { ErrorCode } from '@coffer/contract';
import { concurrent } from './concurrent.ts';
import { remember, type SimContext } from './context.ts';
import { replay, send } from './delivery.ts';
import { apply, expectAnswer, idOf, predict } from './expectations.ts';
import { decimal, units } from './money.ts';
import { bodyOf, burstOf, describe, newKey, newSwap, withTwin } from './requests.ts';
import { transferStep } from './steps-plain.ts';
import { check, type HttpReq } from './types.ts';

/** Two to six requests at once over disjoint users, sometimes one of them twice. */
export function burstStep(ctx: SimContext): Promise<void> {
  return concurrent(ctx, withTwin(ctx, burstOf(ctx, 2 + ctx.rnd.int(5))));
}

/** A remembered keyed request delivered again: its first answer, nothing moved. */
export async function duplicateStep(ctx: SimContext): Promise<void> {
  if (ctx.history.length === 0) return transferStep(ctx);
  await replay(ctx, ctx.rnd.pick(ctx.history));
}

/** One keyed request sent twice at once: one new answer, one replay, one id. */
export async function twinsStep(ctx: SimContext): Promise<void> {
  const { rnd, world } = ctx;
  const r = rnd.chance(70) ? burstOf(ctx, 1, 'transfer')[0]! : newSwap(ctx, rnd.pick(world.people));
  r.key = newKey(ctx);
  const code = predict(ctx, r);
  const [a, b] = await Promise.all([send(ctx, r), send(ctx, r)]);
  const what = `${describe(ctx, r)} twice at once`;
  check(a.code === code && b.code === code, `${what}: answered ${a.code} and ${b.code}, the model expected ${code}`);
  if (code === 0) {
    check(idOf(a) === idOf(b), `${what}: two ids ${idOf(a)} and ${idOf(b)}`);
    check([a, b].filter((x) => x.data!.replayed === false).length === 1, `${what}: not exactly one new answer`);
  }
  const first = a.data?.replayed === false ? a : b;
  apply(ctx, r, code, code === 0 ? expectAnswer(ctx, r, first, code, false) : undefined);
  remember(ctx, { req: r, code, ...(code === 0 && { id: idOf(a)! }) });
}

/** A remembered key sent with another amount: refused as a reused key (3010). */
export async function reusedKeyStep(ctx: SimContext): Promise<void> {
  const candidates = ctx.history.filter((k) => k.req.kind !== 'adjust');
  if (candidates.length === 0) return transferStep(ctx);
  const r = ctx.rnd.pick(candidates).req as HttpReq;
  const other = { ...bodyOf(r), amount: decimal(units(r.amount) + 1_000_000_000_000n) };
  const a = await send(ctx, r, other);
  check(
    a.code === ErrorCode.IDEMPOTENCY_KEY_REUSED,
    `${describe(ctx, r)} with another amount under its key: answered ${a.code}, expected 3010`,
  );
}
