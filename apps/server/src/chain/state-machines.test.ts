import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { inTransaction } from '../db/transaction.ts';
import { createTestDatabase } from '../test/harness.ts';
import { createUser, fund } from '../test/users.ts';
import { canMove, MACHINES, transitionRows } from './state-machines.ts';
import { transition } from './transition.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const sqlState = (err: unknown): string | undefined => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.cause?.code ?? e?.code;
};

async function newWithdrawal(): Promise<{ id: number; uid: number }> {
  const user = await createUser({ database });
  await fund({ database }, user.uid, 'ETH', '10');
  const [net] = await database.sql.query<{ id: number }>(
    `select n.id from networks n join currencies c on c.id = n.currency_id where n.chain_id = 31337 and c.code = 'ETH'`,
  );
  const [row] = await database.sql.query<{ w_id: number }>(
    `with q as (insert into withdrawal_fee_quotes (user_id, network_id, fee, gas_limit, chain_gas_price_wei, gas_price_wei,
                                                  margin_percent, fees_high, expires_at)
                select $1, id, withdraw_fee, 21000, 0, 0, 0, false, now() + interval '1 minute' from networks where id = $2 returning id)
     select a.* from q, coffer_withdraw_apply($1, $2, $3, $4::numeric, null, null, null, q.id) a`,
    [user.uid, net?.id, `0x${'12'.repeat(20)}`, '1'],
  );
  return { id: Number(row?.w_id), uid: user.uid };
}

describe('custody state machines', () => {
  it('the database holds exactly the TypeScript transitions table (state_transitions)', async () => {
    const rows = await database.sql.query<{ machine: string; from_status: string; to_status: string }>(
      'select machine, from_status, to_status from state_transitions',
    );
    const key = (r: { machine: string; from: string; to: string }) => `${r.machine}:${r.from}->${r.to}`;
    const db = rows.map((r) => key({ machine: r.machine, from: r.from_status, to: r.to_status })).sort();
    expect(db).toEqual(transitionRows().map(key).sort());
  });

  it('every status of a machine is listed, and final statuses lead nowhere', () => {
    for (const spec of Object.values(MACHINES)) {
      expect(Object.keys(spec.moves).sort()).toEqual([...spec.statuses].sort());
    }
    expect(canMove('withdrawal', 'completed', 'queued')).toBe(false);
    expect(canMove('withdrawal', 'failed', 'broadcast')).toBe(false);
    expect(canMove('withdrawal', 'queued', 'broadcast')).toBe(true);
  });

  it('the database refuses a move not in the table (completed -> queued, failed -> broadcast), whoever writes it', async () => {
    const { id } = await newWithdrawal();
    // queued -> failed with the money back (the SQL function, as the sender's refusal does)
    await database.sql.query(`select coffer_withdraw_refund($1, 'failed', 'test', '{queued}', null)`, [id]);
    const err = await database.sql.query(`update withdrawals set status = 'broadcast' where id = $1`, [id]).catch((e: unknown) => e);
    expect(sqlState(err)).toBe('CB007');
    const { id: id2 } = await newWithdrawal();
    await database.sql.query(`update withdrawals set status = 'broadcast', nonce = 900001, tx_hash = '0x01' where id = $1`, [id2]);
    await database.sql.query(`update withdrawals set status = 'confirming', block_number = 1 where id = $1`, [id2]);
    await database.sql.query(`select coffer_withdraw_settle($1, '0x01', 1)`, [id2]);
    const err2 = await database.sql.query(`update withdrawals set status = 'queued' where id = $1`, [id2]).catch((e: unknown) => e);
    expect(sqlState(err2)).toBe('CB007');
    const [row] = await database.sql.query<{ status: string }>('select status from withdrawals where id = $1', [id2]);
    expect(row?.status).toBe('completed');
    // a sweep: done -> sent is refused too
    const [sweep] = await database.sql.query<{ id: number }>(
      `insert into sweeps (network_id, deposit_address, address_index, amount, status)
       select id, $1, 0, 1, 'ready' from networks where chain_id = 31337 limit 1 returning id`,
      [`0x${'34'.repeat(20)}`],
    );
    await database.sql.query(`update sweeps set status = 'done' where id = $1`, [sweep?.id]);
    const err3 = await database.sql.query(`update sweeps set status = 'sent' where id = $1`, [sweep?.id]).catch((e: unknown) => e);
    expect(sqlState(err3)).toBe('CB007');
  });

  it('transition() moves only from the status the caller saw, emits the user event with it, and refuses a move not in the table', async () => {
    const { id, uid } = await newWithdrawal();
    const moved = await inTransaction(database, (q) =>
      transition(q, { machine: 'withdrawal', id, from: 'queued', to: 'broadcast', set: { nonce: 900002, tx_hash: '0x02' } }),
    );
    expect(moved).toBe(true);
    // someone else moved it first: nothing written
    const again = await inTransaction(database, (q) => transition(q, { machine: 'withdrawal', id, from: 'queued', to: 'cancelled' }));
    expect(again).toBe(false);
    const events = await database.sql.query<{ status: string }>(
      `select status from user_events where user_id = $1 and type = 'withdraw' and ref_id = $2 order by id`,
      [uid, id],
    );
    expect(events.map((e) => e.status)).toEqual(['broadcast']);
    await expect(
      inTransaction(database, (q) => transition(q, { machine: 'withdrawal', id, from: 'broadcast', to: 'queued' })),
    ).rejects.toThrow(/not an allowed move/);
  });

  it('every status write in src/chain goes through transition() (or a SQL function the trigger guards)', () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const offenders: string[] = [];
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === 'transition.ts' || file.endsWith('-support.ts')) continue;
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      if (/update\s+(withdrawals|sweeps)\s+set\s+[^`]*\bstatus\s*=/i.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});
