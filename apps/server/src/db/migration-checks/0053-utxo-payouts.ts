import { type MigrationCheck, refused, same } from './checks.ts';

/**
 * 0053 adds the UTXO fee rate floor and cap (seeded on UTXO networks only) and the key and
 * batch of each output: an output recorded before it keeps its state and is spent by key
 * branch 0 (a deposit address), in no batch.
 */
export const utxoPayouts: MigrationCheck = {
  migration: '0053_utxo_payouts',
  what: 'fee rates seeded on UTXO networks only; an output recorded before it stays available with a deposit key',
  async before(sql) {
    await sql.query(
      `insert into utxo_outputs (network_id, txid, vout, value, address, block_hash, block_number)
       select id, repeat('ab', 32), 0, 100000, 'rltc1qcheck', repeat('cd', 32), 7 from networks where family = 'utxo'`,
    );
  },
  async after(sql) {
    const nets = await sql.query<{ family: string; floor: string | null; cap: string | null }>(
      `select family, fee_rate_floor::text as floor, fee_rate_cap::text as cap from networks group by family, fee_rate_floor, fee_rate_cap order by family`,
    );
    same(
      nets,
      [
        { family: 'evm', floor: null, cap: null },
        { family: 'utxo', floor: '1', cap: '500' },
      ],
      '0053 fee rates',
    );
    const outputs = await sql.query<{ state: string; key_branch: number; key_index: number | null; batch_id: string | null }>(
      `select state, key_branch, key_index, batch_id from utxo_outputs`,
    );
    same(outputs, [{ state: 'available', key_branch: 0, key_index: null, batch_id: null }], '0053 outputs');
    same(await refused(sql, `update networks set fee_rate_floor = 5, fee_rate_cap = 10 where family = 'evm'`), true, '0053 EVM fee rate');
    same(await refused(sql, `update utxo_outputs set state = 'reserved'`), true, '0053 reserved without a batch');
    await sql.query(`delete from utxo_outputs`);
  },
};
