import { type MigrationCheck, refused, same } from './checks.ts';

/** 0057 gives every currency a display precision: the table the contract had, 8 for any other. */
export const swapDisplayPrecision: MigrationCheck = {
  migration: '0057_swap_display_precision',
  what: 'display precisions seeded per currency, a currency added before it gets 8, out of range refused',
  async before(sql) {
    await sql.query(`insert into currencies (code, name, decimals, icon, sort) values ('XMC', 'Check coin', 12, '/x.svg', 99)`);
  },
  async after(sql) {
    const rows = await sql.query<{ code: string; display_decimals: number }>(`select code, display_decimals from currencies order by code`);
    same(
      Object.fromEntries(rows.map((r) => [r.code, r.display_decimals])),
      { BTC: 8, ETH: 6, LTC: 6, USDC: 2, USDT: 2, XMC: 8 },
      '0057 display_decimals',
    );
    same(await refused(sql, `update currencies set display_decimals = 19 where code = 'XMC'`), true, '0057 range check');
    // (currencies are never deleted: the check coin stays in this throwaway database)
  },
};
