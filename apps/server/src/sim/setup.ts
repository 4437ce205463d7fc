import { adjustBalance } from '../ledger/adjust.ts';
import type { World } from './context.ts';
import { makeUser, type Environment } from './environment.ts';
import type { Model } from './model.ts';
import { adjustInput } from './requests.ts';
import { type AdjustReq, type CurrencyInfo, check, type PairInfo, type SimUser } from './types.ts';
import { verify } from './verify.ts';

/** What each user starts with, in whole units of the currency. */
export const FUNDING: Record<string, string> = { USDT: '1000', USDC: '1000', BTC: '0.5' };

async function loadCurrencies(env: Environment): Promise<CurrencyInfo[]> {
  const rows = await env.raw.sql.query<{
    id: number;
    code: string;
    decimals: number;
    transfer_min: string | null;
    transfer_max: string | null;
  }>(
    `select id, code, decimals, transfer_min::text as transfer_min, transfer_max::text as transfer_max
       from currencies where code = any($1) order by id`,
    [Object.keys(FUNDING)],
  );
  const currencies = rows.map(
    (c): CurrencyInfo => ({
      id: Number(c.id),
      code: c.code,
      decimals: Number(c.decimals),
      transferMin: c.transfer_min,
      transferMax: c.transfer_max,
    }),
  );
  check(currencies.length === Object.keys(FUNDING).length, `currencies ${Object.keys(FUNDING)} not all seeded`);
  return currencies;
}

async function loadPairs(env: Environment, usdt: CurrencyInfo, usdc: CurrencyInfo): Promise<PairInfo[]> {
  const rows = await env.raw.sql.query<{
    from_currency_id: number;
    to_currency_id: number;
    min_amount: string | null;
    max_amount: string | null;
  }>(
    `select from_currency_id, to_currency_id, min_amount::text as min_amount, max_amount::text as max_amount
       from swap_pairs where from_currency_id = any($1) and to_currency_id = any($1)`,
    [[usdt.id, usdc.id]],
  );
  const pairs = rows.map(
    (p): PairInfo => ({ from: Number(p.from_currency_id), to: Number(p.to_currency_id), min: p.min_amount, max: p.max_amount }),
  );
  check(pairs.length === 2, 'the USDT/USDC swap pairs are not seeded');
  return pairs;
}

/** Funds every user in every currency through adjustments, in the model too. */
async function fund(env: Environment, model: Model, operator: SimUser, people: SimUser[], currencies: CurrencyInfo[]) {
  for (const user of people) {
    for (const currency of currencies) {
      const funding: AdjustReq = {
        kind: 'adjust',
        user,
        currencyId: currency.id,
        amount: FUNDING[currency.code]!,
        direction: 'credit',
        reason: 'sim funding',
        key: null,
      };
      await adjustBalance(env.faulty.database, adjustInput(operator, funding));
      model.adjust(user.uid, currency.id, FUNDING[currency.code]!);
    }
  }
}

/** Setup: currencies, pairs, an operator, users with money; the ledger checked once. */
export async function setupWorld(env: Environment, model: Model, userCount: number): Promise<World> {
  const currencies = await loadCurrencies(env);
  const byCode = new Map(currencies.map((c) => [c.code, c]));
  const usdt = byCode.get('USDT')!;
  const usdc = byCode.get('USDC')!;
  const pairs = await loadPairs(env, usdt, usdc);
  const operator = await makeUser(env.raw, 'operator', 'operator');
  const people: SimUser[] = [];
  for (let i = 0; i < userCount; i++) people.push(await makeUser(env.raw, `user${i}`, 'user'));
  await fund(env, model, operator, people, currencies);
  await verify(env.raw, model);
  return { currencies, byId: new Map(currencies.map((c) => [c.id, c])), usdt, usdc, pairs, operator, people };
}
