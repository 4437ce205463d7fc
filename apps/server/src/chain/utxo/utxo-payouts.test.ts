import { type Balance, type DepositAddress, trimDecimal, type WithdrawRecord } from '@coffer/contract';
import fs from 'node:fs';
import path from 'node:path';
import { formatUnits, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp, testDbKind } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { addressScriptHex, deriveBip84Address, utxoAccountXpub } from './address.ts';
import { UTXO_NETWORKS } from './params.ts';
import { UtxoPayouts } from './payouts.ts';
import { reconcileUtxo } from './reconcile.ts';
import { regtestBinary } from './regtest.ts';
import { toBaseUnits } from './rpc.ts';
import type { UtxoLive } from './runtime.ts';

const bin = regtestBinary();
if (!bin && process.env.CI)
  throw new Error('litecoind is not on the PATH: install the Debian package "litecoind" (CI must run these tests)');

const params = UTXO_NETWORKS['litecoin-regtest'];
const BATCH_SECONDS = 600;
const BUMP_SECONDS = 3600;
/** Destinations outside Coffer: BIP-84 addresses of another seed. */
const stranger = utxoAccountXpub(new Uint8Array(64).fill(7), params);
const outside = (i: number) => deriveBip84Address(stranger, i, params);

/**
 * LTC withdrawals paid on a real litecoind regtest node through the API: batched into one
 * transaction by the clock or the batch size, replaced by fee when not mined in time, re-sent
 * from storage after a failed broadcast, settled once at N with the miner fee booked, and
 * reconciled to the litoshi.
 */
describe.skipIf(!bin)(`UTXO payouts on litecoind regtest (${testDbKind})`, () => {
  let t: TestApp;
  let utxo: UtxoLive;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let ltc: { id: number; currency_id: number };
  // The payouts' clock: the tests move it past the batch interval and the bump delay. Rows
  // are stamped by the database's clock, so it moves from the wall's time.
  let now = Date.now();
  const later = (seconds: number) => {
    now = Math.max(now, Date.now()) + seconds * 1000;
  };

  const balance = async () => (await call<Balance>('GET', `/api/currency/balance/${ltc.currency_id}`, { token: alice.token })).data;
  const code = async () => {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    await call('GET', `/api/sendMail?email=${encodeURIComponent(alice.email)}&type=withdraw`, { token: alice.token });
    return t.mailbox.lastCode(alice.email);
  };
  const withdraw = async (address: string, amount: string, lang?: string) =>
    applyWithdraw(call, {
      token: alice.token,
      lang,
      body: { currencyId: ltc.currency_id, networkId: ltc.id, address, amount, code: await code() },
    });
  const detail = async (id: number) => (await call<WithdrawRecord>('GET', `/api/withdraw/detail/${id}`, { token: alice.token })).data;
  /** Mines a block and runs the chain's loop once (watcher, reconcile when due, payouts). */
  const step = async (blocks = 1) => {
    if (blocks > 0) await utxo.local!.mine(blocks);
    await utxo.tick();
  };
  const paidTo = async (txid: string) => {
    const tx = (await utxo.local!.rpc.call('getrawtransaction', [txid, true])) as {
      vout: Array<{ value: string; scriptPubKey: { hex: string } }>;
    };
    return tx.vout.map((o) => ({ script: o.scriptPubKey.hex, value: trimLitoshi(toBaseUnits(o.value)) }));
  };

  beforeAll(async () => {
    t = await createTestApp(
      {
        // the signer runs as its own process, as `npm start` runs it: payouts are signed over its channel
        SIGNER: 'child',
        RATE_LIMIT: 'off',
        LOCAL_UTXO: 'on',
        UTXO_BATCH_SECONDS: String(BATCH_SECONDS),
        UTXO_BATCH_SIZE: '3',
        UTXO_BUMP_AFTER_SECONDS: String(BUMP_SECONDS),
      },
      { chain: true, clock: () => now },
    );
    utxo = t.chain.utxo!;
    call = client(t);
    alice = await createUser(t, { email: 'alice-ltc@example.com' });
    [ltc] = (await t.database.sql.query<{ id: number; currency_id: number }>(
      `select id, currency_id from networks where chain_id = $1 and family = 'utxo'`,
      [params.chainId],
    )) as [{ id: number; currency_id: number }];
    // three deposits of 1 LTC: three outputs to choose from
    const address = (
      await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: alice.token,
        body: { currencyId: ltc.currency_id, networkId: ltc.id },
      })
    ).data.address;
    // the watcher's first tick starts its cursor at the tip; the deposits come after it
    await step(0);
    for (let i = 0; i < 3; i++) await utxo.local!.send(address, '1');
    await step(1);
    await step(1);
    await step(1);
    expect(await balance()).toMatchObject({ available: '3', frozen: '0' });
  }, 120_000);
  afterAll(async () => {
    if (!t) return;
    try {
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    } finally {
      // the node and the chain stop even when the audit fails
      await t.close();
    }
  });

  it('serves LTC withdrawals: the network opens them, the runtime runs the payouts', async () => {
    expect(utxo.payouts).toBeInstanceOf(UtxoPayouts);
    const [row] = await t.database.sql.query<{ withdraw_enabled: boolean }>('select withdraw_enabled from networks where id = $1', [
      ltc.id,
    ]);
    expect(row?.withdraw_enabled).toBe(true);
  });

  it('refuses destinations clearly: another network 3056, an EVM address 3057, our own deposit address 3008', async () => {
    const btc = deriveBip84Address(utxoAccountXpub(new Uint8Array(64).fill(7), UTXO_NETWORKS.bitcoin), 0, UTXO_NETWORKS.bitcoin);
    const en = await withdraw(btc, '0.1', 'en-US');
    expect(en.code).toBe(3056);
    const zh = await withdraw(btc, '0.1', 'zh-CN');
    expect(zh).toMatchObject({ code: 3056 });
    expect(zh.message).not.toBe(en.message);
    expect((await withdraw('0x8ba1f109551bD432803012645Ac136ddd64DBA72', '0.1')).code).toBe(3057);
    const own = (await call<DepositAddress[]>('GET', '/api/deposit/getAddressList', { token: alice.token })).data.find(
      (a) => a.networkId === ltc.id,
    )!.address;
    expect((await withdraw(own, '0.1')).code).toBe(3008);
    expect((await withdraw('rltc1qnotanaddress', '0.1')).code).toBe(3008);
    expect(await balance()).toMatchObject({ available: '3', frozen: '0' });
  });

  it('pays three withdrawals in one transaction once the batch is full; settles each once at N; books the miner fee', async () => {
    const first = await withdraw(outside(1), '0.5');
    expect(first.code).toBe(0);
    const fee = first.data.fee;
    const second = await withdraw(outside(2), '0.3');
    await step(0);
    // two of three queued and the interval not over: no batch yet
    expect((await detail(first.data.id)).status).toBe('queued');
    const third = await withdraw(outside(3), '0.2');
    await step(0);
    const records = await Promise.all([first, second, third].map((w) => detail(w.data.id)));
    expect(records.map((r) => r.status)).toEqual(['broadcast', 'broadcast', 'broadcast']);
    const txid = records[0]!.txHash!;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    // signed by the signer process, which journaled it
    const journal = fs
      .readFileSync(path.join(t.config.dataDir, 'signer-journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal).toContainEqual(
      expect.objectContaining({ chainId: params.chainId, txHash: txid, amount: '100000000', to: '3 payouts' }),
    );
    expect(records.every((r) => r.txHash === txid)).toBe(true);
    // the transaction pays each destination exactly, and the change goes to our change address
    const outs = await paidTo(txid);
    expect(outs.slice(0, 3)).toEqual([
      { script: addressScriptHex(outside(1), params), value: '0.5' },
      { script: addressScriptHex(outside(2), params), value: '0.3' },
      { script: addressScriptHex(outside(3), params), value: '0.2' },
    ]);
    await step(1);
    expect((await detail(first.data.id)).status).toBe('confirming');
    await step(1);
    const done = await Promise.all([first, second, third].map((w) => detail(w.data.id)));
    expect(done.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    await step(1);
    const [batch] = await t.database.sql.query<{ status: string; miner_fee: string; tx_hash: string; input_total: string }>(
      `select b.status, b.miner_fee::text, b.tx_hash, b.input_total::text from utxo_batches b
        join withdrawals w on w.batch_id = b.id where w.id = $1`,
      [first.data.id],
    );
    expect(batch).toMatchObject({ status: 'completed', tx_hash: txid });
    // inputs = payouts + change + miner fee, to the litoshi, and the node agrees on the change
    const [sums] = await t.database.sql.query<{ spent: string; change: string; booked: string }>(
      `select (select sum(value)::text from utxo_outputs where spent_by = $1) as spent,
              (select coalesce(sum(value), 0)::text from utxo_outputs where txid = $1) as change,
              (select trim_scale(amount)::text from utxo_fees f join utxo_batches b on b.id = f.batch_id where b.tx_hash = $1) as booked`,
      [txid],
    );
    expect(sums!.spent).toBe(batch!.input_total);
    expect(outs).toHaveLength(4);
    expect(outs[3]!.value).toBe(trimLitoshi(BigInt(sums!.change)));
    expect(BigInt(sums!.spent) - 100_000_000n - BigInt(sums!.change)).toBe(BigInt(batch!.miner_fee));
    expect(BigInt(batch!.miner_fee)).toBeGreaterThan(0n);
    expect(sums!.booked).toBe(trimLitoshi(BigInt(batch!.miner_fee)));
    // alice paid 1 LTC and three quoted fees; nothing frozen is left
    expect(await balance()).toMatchObject({ available: subtract('2', fee, 3), frozen: '0' });
    const rec = await reconcileUtxo({ database: t.database, rpc: utxo.local!.rpc, params, openIncidents: false });
    expect(rec.rows).toEqual([expect.objectContaining({ networkId: ltc.id, drift: '0', ok: true, inFlight: '0' })]);
  });

  it('a batch stored but not broadcast (the node refused, or a crash) is sent from storage by the next tick, and paid once', async () => {
    const w = await withdraw(outside(5), '0.1');
    later(BATCH_SECONDS + 1);
    // the payouts' node refuses the first broadcast, as a crash after the commit would leave it
    const rpc = utxo.local!.rpc;
    const original = rpc.call.bind(rpc);
    let refused = 0;
    rpc.call = async (method, args) => {
      if (method === 'sendrawtransaction' && refused === 0) {
        refused++;
        throw new Error('connection reset');
      }
      return original(method, args);
    };
    try {
      await step(0);
    } finally {
      rpc.call = original;
    }
    expect(refused).toBe(1);
    const stored = await detail(w.data.id);
    expect(stored.status).toBe('broadcast');
    expect((await rpc.call('getrawmempool')) as string[]).not.toContain(stored.txHash);
    await step(0);
    expect((await rpc.call('getrawmempool')) as string[]).toContain(stored.txHash);
    await step(1);
    await step(1);
    expect(await detail(w.data.id)).toMatchObject({ status: 'completed', txHash: stored.txHash });
    const [count] = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from utxo_batch_txs t join withdrawals w on w.batch_id = t.batch_id where w.id = $1`,
      [w.data.id],
    );
    expect(count?.n).toBe(1);
    const rec = await reconcileUtxo({ database: t.database, rpc, params, openIncidents: false });
    expect(rec.rows[0]).toMatchObject({ ok: true, drift: '0', inFlight: '0' });
  });

  it('replaces a batch not mined in time (same inputs, a higher fee); the replacement settles, every txid kept', async () => {
    const w = await withdraw(outside(4), '0.25');
    expect(w.code).toBe(0);
    later(BATCH_SECONDS + 1);
    await step(0);
    const firstTx = (await detail(w.data.id)).txHash!;
    expect((await detail(w.data.id)).status).toBe('broadcast');
    // in flight: reconciliation counts the reserved inputs, still exact
    const inFlight = await reconcileUtxo({ database: t.database, rpc: utxo.local!.rpc, params, openIncidents: false });
    expect(inFlight.rows[0]).toMatchObject({ ok: true, drift: '0' });
    expect(inFlight.rows[0]!.inFlight).not.toBe('0');
    // not mined (no block) for longer than the bump delay
    later(BUMP_SECONDS + 1);
    await step(0);
    const attempts = await t.database.sql.query<{ tx_hash: string; fee: string; status: string }>(
      `select t.tx_hash, t.fee::text, t.status from utxo_batch_txs t join withdrawals w on w.batch_id = t.batch_id where w.id = $1 order by t.id`,
      [w.data.id],
    );
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatchObject({ tx_hash: firstTx, status: 'replaced' });
    expect(BigInt(attempts[1]!.fee)).toBeGreaterThan(BigInt(attempts[0]!.fee));
    // the node holds the replacement, not the first
    const mempool = (await utxo.local!.rpc.call('getrawmempool')) as string[];
    expect(mempool).toContain(attempts[1]!.tx_hash);
    expect(mempool).not.toContain(firstTx);
    await step(1);
    await step(1);
    const done = await detail(w.data.id);
    expect(done).toMatchObject({ status: 'completed', txHash: attempts[1]!.tx_hash });
    expect(await paidTo(attempts[1]!.tx_hash)).toContainEqual({ script: addressScriptHex(outside(4), params), value: '0.25' });
  });

  it('reconciliation finds an output the node does not have, and freezes the payouts', async () => {
    const [row] = await t.database.sql.query<{ id: string }>(
      `insert into utxo_outputs (network_id, txid, vout, value, address, block_hash, block_number, key_branch, key_index)
       values ($1, $2, 0, 1000, 'rltc1qplanted', 'x', 1, 1, 999) returning id::text`,
      [ltc.id, 'ab'.repeat(32)],
    );
    try {
      const rec = await reconcileUtxo({ database: t.database, rpc: utxo.local!.rpc, params });
      expect(rec.rows[0]).toMatchObject({ ok: false });
      const [frozen] = await t.database.sql.query<{ f: boolean }>('select chain_payouts_frozen($1) as f', [ltc.id]);
      expect(frozen?.f).toBe(true);
    } finally {
      await t.database.sql.query('delete from utxo_outputs where id = $1', [row!.id]);
      await t.database.sql.query(`update chain_incidents set resolved_at = now() where network_id = $1 and resolved_at is null`, [ltc.id]);
    }
  });
});

/** Litoshis as an LTC decimal string without trailing zeros. */
const trimLitoshi = (v: bigint) => trimDecimal(formatUnits(v, 8));

/** a - n x b for decimal strings of at most 8 places, exactly. */
const subtract = (a: string, b: string, n: number) => trimLitoshi(parseUnits(a, 8) - BigInt(n) * parseUnits(b, 8));
