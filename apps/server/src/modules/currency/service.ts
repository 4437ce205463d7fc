import { type Balance, type Currency, ErrorCode, trimDecimal } from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { currencies } from '../../ledger/currencies.ts';

export async function listCurrencies(database: Database): Promise<Currency[]> {
  return (await currencies(database)).list;
}

/** Adds two non-negative stored NUMERIC(38,18) strings exactly (18 fixed decimals). */
function addStored(a: string, b: string): string {
  const units = (v: string) => {
    const [int = '0', frac = ''] = v.split('.');
    return BigInt(int + frac.padEnd(18, '0').slice(0, 18));
  };
  const sum = (units(a) + units(b)).toString().padStart(19, '0');
  return `${sum.slice(0, -18)}.${sum.slice(-18)}`;
}

function toBalance(c: Currency, available: string, frozen: string): Balance {
  return {
    currencyId: c.id,
    code: c.code,
    decimals: c.decimals,
    available: trimDecimal(available),
    frozen: trimDecimal(frozen),
    total: trimDecimal(addStored(available, frozen)),
  };
}

async function userAccounts(database: Database, userId: number) {
  const rows = await database.sql.query<{ currency_id: number; kind: string; balance: string }>(
    'select currency_id, kind, balance from accounts where user_id = $1',
    [userId],
  );
  const map = new Map<number, { available: string; frozen: string }>();
  for (const r of rows) {
    const id = Number(r.currency_id);
    const entry = map.get(id) ?? { available: '0', frozen: '0' };
    if (r.kind === 'available') entry.available = r.balance;
    else if (r.kind === 'frozen') entry.frozen = r.balance;
    map.set(id, entry);
  }
  return map;
}

/** Every enabled currency with the user's balances, zero where no account exists yet. */
export async function listBalances(database: Database, userId: number): Promise<Balance[]> {
  const [all, accounts] = await Promise.all([currencies(database), userAccounts(database, userId)]);
  return all.list
    .filter((c) => c.enabled)
    .map((c) => {
      const a = accounts.get(c.id);
      return toBalance(c, a?.available ?? '0', a?.frozen ?? '0');
    });
}

/** One enabled currency's balance (3003 for unknown or disabled currencies). */
export async function oneBalance(database: Database, userId: number, currencyId: number): Promise<Balance> {
  const all = await currencies(database);
  const c = all.byId.get(currencyId);
  if (!c?.enabled) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE);
  const rows = await database.sql.query<{ kind: string; balance: string }>(
    'select kind, balance from accounts where user_id = $1 and currency_id = $2',
    [userId, currencyId],
  );
  const available = rows.find((r) => r.kind === 'available')?.balance ?? '0';
  const frozen = rows.find((r) => r.kind === 'frozen')?.balance ?? '0';
  return toBalance(c, available, frozen);
}
