import { ErrorCode } from '@coffer/contract';
import { concurrent } from './concurrent.ts';
import type { SimContext } from './context.ts';
import { replayLanded, runAdjust, send, single } from './delivery.ts';
import { apply, predict } from './expectations.ts';
import { ADJUST_FAULTS, type AdjustFault, BATCH_FAULTS, REFUSAL_FAULTS, type RefusalFault, type Writer } from './faults.ts';
import { bodyOf, burstOf, describe, newKey, newSwap, randomAmount, withTwin } from './requests.ts';
import { type AdjustReq, check } from './types.ts';

/** A burst on one writer with a batch fault armed on its first or second statement. */
export async function faultBatchStep(ctx: SimContext): Promise<void> {
  const { rnd } = ctx;
  const writer: Writer = rnd.chance(60) ? 'transfer' : 'swap';
  // Kinds in turn (from a seeded start), so that a short run injects each of them.
  const kind = BATCH_FAULTS[(ctx.faultTurn.batch++ + ctx.seed) % BATCH_FAULTS.length]!;
  // More requests without a key than elsewhere: the ones a lost answer leaves unknown to their client.
  const burst = burstOf(ctx, 1 + rnd.int(6), writer);
  for (const r of burst) if (rnd.chance(40)) r.key = null;
  const reqs = withTwin(ctx, burst);
  await concurrent(ctx, reqs, { writer, kind, nth: new Set(reqs).size > 1 && rnd.chance(40) ? 2 : 1 });
}

/** A keyed swap below the pair's minimum whose kept refusal's statement loses its connection. */
export async function faultRefusalStep(ctx: SimContext): Promise<void> {
  // 3002, kept by one ledger_keep_refusal() statement.
  const fault: RefusalFault = REFUSAL_FAULTS[(ctx.faultTurn.refusal++ + ctx.seed) % REFUSAL_FAULTS.length]!;
  const r = newSwap(ctx, ctx.rnd.pick(ctx.world.people), '0.5');
  r.key = newKey(ctx);
  const code = predict(ctx, r);
  const what = describe(ctx, r);
  check(code === ErrorCode.AMOUNT_OUT_OF_RANGE, `${what}: the model expected ${code}, not 3002`);
  ctx.env.faulty.armRefusal(fault);
  const a = await send(ctx, r, bodyOf(r), 0);
  const { refusalFired } = ctx.env.faulty.collect();
  check(refusalFired === fault, `${what}: the armed ${fault} did not fire (answered ${a.code})`);
  ctx.tally.faults[fault]++;
  check(
    a.status === 500 && a.code === ErrorCode.INTERNAL,
    `${what}: its refusal's statement lost the connection, yet it answered ${a.status}/${a.code}`,
  );
  if (fault === 'refusal-lost-after-commit') {
    apply(ctx, r, code);
    await replayLanded(ctx, r, code);
  } else {
    await single(ctx, r);
  }
}

/** A credit whose transaction loses its connection before or after COMMIT; retried when keyed. */
export async function faultAdjustStep(ctx: SimContext): Promise<void> {
  const { rnd, world } = ctx;
  const fault: AdjustFault = ADJUST_FAULTS[(ctx.faultTurn.adjust++ + ctx.seed) % ADJUST_FAULTS.length]!;
  const currency = rnd.pick(world.currencies);
  const r: AdjustReq = {
    kind: 'adjust',
    user: rnd.pick(world.people),
    currencyId: currency.id,
    amount: randomAmount(ctx, currency),
    direction: 'credit',
    reason: `sim step ${ctx.step}`,
    key: rnd.chance(70) ? newKey(ctx) : null,
  };
  ctx.env.faulty.armAdjust(fault);
  let error: unknown = null;
  try {
    await runAdjust(ctx, r);
  } catch (e) {
    error = e;
  }
  const { adjustFired } = ctx.env.faulty.collect();
  const what = describe(ctx, r);
  check(adjustFired === fault, `${what}: the armed ${fault} did not fire`);
  ctx.tally.faults[fault]++;
  check(error !== null, `${what}: answered although its connection was lost`);
  const landed = fault === 'adjust-lost-after-commit';
  if (landed) apply(ctx, r, 0);
  if (!r.key) return;
  if (landed) await replayLanded(ctx, r, 0);
  else await single(ctx, r);
}
