import { type Currency, ErrorCode, trimDecimal } from '@coffer/contract';
import { displayDecimals } from '@coffer/contract/amount-rules';
import { BizError } from '../core/errors.ts';
import type { Database } from '../db/client.ts';

/** How long a read of the currencies table is reused (operators change it rarely). */
const TTL_MS = 5_000;

interface Cached {
  at: number;
  list: Currency[];
  byId: Map<number, Currency>;
  byCode: Map<string, Currency>;
  loading?: Promise<Cached>;
}

const caches = new WeakMap<Database, Cached>();

async function load(database: Database): Promise<Cached> {
  const rows = await database.sql.query<{
    id: number;
    code: string;
    name: string;
    decimals: number;
    display_decimals: number;
    icon: string;
    sort: number;
    enabled: boolean;
    transfer_min: string | null;
    transfer_max: string | null;
  }>(
    'select id, code, name, decimals, display_decimals, icon, sort, enabled, transfer_min, transfer_max from currencies order by sort, id',
  );
  const list: Currency[] = rows.map((r) => ({
    id: Number(r.id),
    code: r.code,
    name: r.name,
    decimals: Number(r.decimals),
    icon: r.icon,
    sort: Number(r.sort),
    enabled: r.enabled,
    transferMin: r.transfer_min === null ? null : trimDecimal(r.transfer_min),
    transferMax: r.transfer_max === null ? null : trimDecimal(r.transfer_max),
    displayDecimals: displayDecimals({ code: r.code, decimals: Number(r.decimals), displayDecimals: Number(r.display_decimals) }),
  }));
  return {
    at: Date.now(),
    list,
    byId: new Map(list.map((c) => [c.id, c])),
    byCode: new Map(list.map((c) => [c.code.toUpperCase(), c])),
  };
}

/**
 * All currencies, from memory: the hot paths (transfers, balances) must not read the
 * table on every request. The SQL functions check `enabled` and limits again, so a
 * change is enforced at once even while this copy is a few seconds old.
 */
export async function currencies(database: Database): Promise<Cached> {
  const cached = caches.get(database);
  if (cached && Date.now() - cached.at < TTL_MS) return cached;
  if (cached?.loading) return cached.loading;
  const loading = load(database).then(
    (fresh) => {
      caches.set(database, fresh);
      return fresh;
    },
    (e) => {
      if (cached) cached.loading = undefined;
      throw e;
    },
  );
  if (cached) cached.loading = loading;
  else caches.set(database, { at: 0, list: [], byId: new Map(), byCode: new Map(), loading });
  return loading;
}

/** Forgets the cached copy (after an operator edits currencies, and in tests). */
export function invalidateCurrencies(database: Database): void {
  caches.delete(database);
}

/** An enabled currency by id, or 3003. */
export async function enabledCurrency(database: Database, id: number): Promise<Currency> {
  const c = (await currencies(database)).byId.get(id);
  if (!c?.enabled) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE);
  return c;
}

/** A currency by id or code (enabled or not: operators may correct any), or 3003. */
export async function anyCurrency(database: Database, idOrCode: number | string): Promise<Currency> {
  const all = await currencies(database);
  const c = typeof idOrCode === 'number' ? all.byId.get(idOrCode) : all.byCode.get(idOrCode.toUpperCase());
  if (!c) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE);
  return c;
}
