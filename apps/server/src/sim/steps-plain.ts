import type { SimContext } from './context.ts';
import { single } from './delivery.ts';
import { predict } from './expectations.ts';
import { decimal, units } from './money.ts';
import { newKey, newSwap, newTransfer, randomAmount } from './requests.ts';
import { check, type HttpReq, type SimUser } from './types.ts';

/** A transfer between two users in a random currency. */
export async function transferStep(ctx: SimContext): Promise<void> {
  const { rnd, world } = ctx;
  const [from, to] = rnd.sample(world.people, 2) as [SimUser, SimUser];
  await single(ctx, newTransfer(ctx, from, to, rnd.pick(world.currencies)));
}

/** A swap by one user. */
export function swapStep(ctx: SimContext): Promise<void> {
  return single(ctx, newSwap(ctx, ctx.rnd.pick(ctx.world.people)));
}

/** An operator's adjustment, a credit or a debit; a debit is sometimes more than the balance. */
export async function adjustStep(ctx: SimContext): Promise<void> {
  const { rnd, model, world } = ctx;
  const user = rnd.pick(world.people);
  const currency = rnd.pick(world.currencies);
  const direction = rnd.chance(60) ? 'credit' : 'debit';
  // More than the balance: 3001, not kept (adjustments keep no refusal).
  const amount =
    direction === 'debit' && rnd.chance(30)
      ? decimal(model.balance(user.uid, currency.id) + units(randomAmount(ctx, currency)))
      : randomAmount(ctx, currency);
  await single(ctx, {
    kind: 'adjust',
    user,
    currencyId: currency.id,
    amount,
    direction,
    reason: `sim step ${ctx.step}`,
    key: rnd.chance(70) ? newKey(ctx) : null,
  });
}

const REFUSED_VARIANTS = ['insufficient', 'bad-decimals', 'self', 'swap-below-min', 'swap-insufficient'] as const;

/** A request the API must refuse: overdrawn, too many decimals, to oneself, below a pair's minimum. */
export async function refusedStep(ctx: SimContext): Promise<void> {
  const { rnd, model, world } = ctx;
  const [u, v] = rnd.sample(world.people, 2) as [SimUser, SimUser];
  const c = rnd.pick(world.currencies);
  const variant = rnd.pick(REFUSED_VARIANTS);
  let r: HttpReq;
  if (variant === 'insufficient') r = newTransfer(ctx, u, v, c, decimal(model.balance(u.uid, c.id) + units(randomAmount(ctx, c))));
  else if (variant === 'bad-decimals') r = newTransfer(ctx, u, v, c, `1.${'0'.repeat(c.decimals)}1`);
  else if (variant === 'self') r = newTransfer(ctx, u, u, c);
  else if (variant === 'swap-below-min') r = newSwap(ctx, u, '0.5');
  else {
    r = newSwap(ctx, u);
    r.amount = decimal(model.balance(u.uid, r.fromCurrencyId) + units('0.000001'));
  }
  check(predict(ctx, r) !== 0, `refused step (${variant}) built a request the model expects to pass`);
  await single(ctx, r);
}
