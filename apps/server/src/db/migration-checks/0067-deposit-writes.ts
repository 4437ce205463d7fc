import { type MigrationCheck, refused, same } from './checks.ts';

const KEYS = ['deposits_user_id_fkey', 'deposits_currency_id_fkey', 'deposits_entry_id_fkey', 'user_events_user_id_fkey'];

/**
 * 0067 drops the row-by-row keys of the watcher's writes and makes the UTXO outputs follow
 * their deposits once per statement. Rows written before it stay; the outputs still follow a
 * credit and a reorg; an entry a deposit names still cannot be deleted.
 */
export const depositWrites: MigrationCheck = {
  migration: '0067_deposit_writes_without_row_checks',
  what: 'the four keys gone, deposits kept, outputs following a credit and a reorg per statement, a named entry kept',
  async before(sql) {
    const [user] = await sql.query<{ id: number }>(
      `insert into users (email, password_hash, nickname) values ('m0067@check.coffer', 'x', 'm') returning id`,
    );
    // Two pending deposits on the UTXO network (its family's outputs follow them) and one on an EVM network.
    await sql.query(
      `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
       select n.id, n.currency_id, $1, 'addr-' || n.family || '-' || v, '', repeat('ab', 31) || lpad(v::text, 2, '0'), v, 7, repeat('cd', 32), 0.5
       from networks n cross join generate_series(0, 1) v
       where n.id in ((select min(id) from networks where family = 'utxo'), (select min(id) from networks where family = 'evm'))
         and (n.family = 'utxo' or v = 0)`,
      [user!.id],
    );
  },
  async after(sql) {
    const keys = await sql.query<{ n: number }>('select count(*)::int as n from pg_constraint where conname = any($1::text[])', [KEYS]);
    same(keys[0]!.n, 0, '0067 keys dropped');
    same((await sql.query('select id from deposits where status = $1', ['pending'])).length, 3, '0067 deposits kept');
    // One statement credits all three: the two UTXO deposits become available outputs, the EVM one none.
    const [entry] = await sql.query<{ id: number }>(`insert into journal_entries (kind) values ('deposit') returning id`);
    await sql.query(
      `update deposits set status = 'credited', entry_id = $1 + id - (select min(id) from deposits) where status = 'pending'`,
      [entry!.id],
    );
    const outputs = await sql.query<{ address: string; state: string }>('select address, state from utxo_outputs order by address');
    same(
      outputs,
      [
        { address: 'addr-utxo-0', state: 'available' },
        { address: 'addr-utxo-1', state: 'available' },
      ],
      '0067 outputs follow the credit',
    );
    // A reorg after the credit takes the available outputs away, in one statement too.
    await sql.query(`update deposits set status = 'reorged_after_credit' where address like 'addr-utxo-%'`);
    same((await sql.query('select id from utxo_outputs')).length, 0, '0067 outputs follow the reorg');
    same(await refused(sql, 'delete from journal_entries where id = $1', [entry!.id]), true, '0067 an entry a deposit names');
    await sql.query(`delete from deposits where address like 'addr-%'`);
    await sql.query(`delete from journal_entries where kind = 'deposit'`);
  },
};
