import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { hex } from '@scure/base';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { Transaction } from '@scure/btc-signer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MnemonicKeyring } from '../chain/keys.ts';
import { addressScriptHex, deriveBip84Address, utxoAccountXpub } from '../chain/utxo/address.ts';
import { UTXO_NETWORKS } from '../chain/utxo/params.ts';
import type { UtxoSignRequest } from '../chain/utxo/payout-tx.ts';
import { SignerClient, SignerKeyring, SignerRefusedError } from './client.ts';
import { SignerJournal } from './journal.ts';
import { signerPolicySchema } from './policy.ts';
import { createSignerServer, listen } from './server.ts';
import { SignerService } from './service.ts';

/**
 * The signer's UTXO payouts (docs/decisions/051-utxo-payouts.md) through its MAC'd channel: it
 * signs exactly the transaction asked (inputs with the replace-by-fee sequence, payouts, the
 * change to the change address it derives itself), and refuses a miner fee above its cap, a
 * payout above its per-transaction limit, the day's total above its daily limit (a
 * replacement of the same inputs counted once), an address of another network, a chain it
 * does not know.
 */
const params = UTXO_NETWORKS['litecoin-regtest'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-signer-utxo-'));
const keys = new MnemonicKeyring(generateMnemonic(wordlist, 256));
const secret = randomBytes(32);
const policy = signerPolicySchema.parse({
  chains: [
    {
      chainId: 31337,
      coldAddress: null,
      maxFeeWei: '1',
      topUpMaxWei: '1',
      topUpPerDayWei: '1',
      native: { code: 'ETH', perTxMax: '1', perDayMax: '1' },
      tokens: [],
    },
  ],
  utxoChains: [{ chainId: params.chainId, native: { code: 'LTC', perTxMax: '100000000', perDayMax: '150000000' }, maxFee: '100000' }],
});
const now = Date.UTC(2026, 10, 27, 12);
const stranger = utxoAccountXpub(new Uint8Array(64).fill(9), params);
const to = (i: number) => deriveBip84Address(stranger, i, params);
const input = (n: number, value: bigint) => ({ txid: n.toString(16).padStart(64, '0'), vout: 0, value, branch: 0 as const, index: n });

let server: Server;
let signer: SignerKeyring;

beforeAll(async () => {
  const journal = new SignerJournal(path.join(dir, 'journal.jsonl'), now);
  server = createSignerServer(new SignerService(keys, policy, journal, () => now), secret, { info() {}, warn() {} }, () => now);
  const url = `http://127.0.0.1:${await listen(server, '127.0.0.1', 0)}`;
  signer = await SignerKeyring.connect(new SignerClient(url, secret, () => now));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const refusal = (req: UtxoSignRequest) =>
  signer.signUtxo(params, req).then(
    () => 'signed',
    (err: unknown) => (err instanceof SignerRefusedError ? err.refusal : String(err)),
  );

describe('the signer signs UTXO payouts within its policy', () => {
  it('tells the account key of each UTXO chain it serves: the one its mnemonic derives', async () => {
    expect(await signer.utxoAccountXpub(params)).toBe(await keys.utxoAccountXpub(params));
    await expect(signer.utxoAccountXpub(UTXO_NETWORKS.litecoin)).rejects.toThrow(/does not cover/);
  });

  it('signs exactly what was asked: inputs signalling replace-by-fee, the payouts, its own change address last', async () => {
    const req: UtxoSignRequest = {
      chainId: params.chainId,
      inputs: [input(1, 60_000_000n), input(2, 10_000_000n)],
      payouts: [
        { address: to(1), value: 30_000_000n },
        { address: to(2), value: 20_000_000n },
      ],
      change: { index: 7, value: 19_990_000n },
    };
    const signed = await signer.signUtxo(params, req);
    const tx = Transaction.fromRaw(hex.decode(signed.hex), { allowUnknownOutputs: true });
    expect(tx.id).toBe(signed.txid);
    expect(tx.inputsLength).toBe(2);
    expect(tx.getInput(0).sequence).toBe(0xfffffffd);
    const outs = Array.from({ length: tx.outputsLength }, (_, i) => tx.getOutput(i));
    const change = deriveBip84Address(await keys.utxoAccountXpub(params), 7, params, 1);
    expect(outs.map((o) => [hex.encode(o.script!), o.amount])).toEqual([
      [addressScriptHex(to(1), params), 30_000_000n],
      [addressScriptHex(to(2), params), 20_000_000n],
      [addressScriptHex(change, params), 19_990_000n],
    ]);
    expect(signed.vsize).toBeGreaterThan(200);
  });

  it('refuses a fee above its cap, a payout above its limit, another network, another chain', async () => {
    const base = { chainId: params.chainId, inputs: [input(3, 50_000_000n)], change: null };
    expect(await refusal({ ...base, payouts: [{ address: to(3), value: 49_000_000n }] })).toBe('fee_over_cap');
    expect(
      await refusal({
        ...base,
        inputs: [input(4, 200_000_000n)],
        payouts: [{ address: to(3), value: 150_000_000n }],
        change: { index: 1, value: 49_990_000n },
      }),
    ).toBe('over_tx_limit');
    const btc = deriveBip84Address(utxoAccountXpub(new Uint8Array(64).fill(9), UTXO_NETWORKS.bitcoin), 0, UTXO_NETWORKS.bitcoin);
    expect(await refusal({ ...base, payouts: [{ address: btc, value: 49_990_000n }] })).toBe('no_recipient');
    expect(await refusal({ ...base, chainId: UTXO_NETWORKS.litecoin.chainId, payouts: [{ address: to(3), value: 49_990_000n }] })).toBe(
      'unknown_chain',
    );
  });

  it('counts the day: a replacement of the same inputs once, a new batch beyond the daily limit refused', async () => {
    // 0.5 LTC was signed above; 0.9 more fits (1.4 of 1.5), its replacement adds nothing
    const batch = (fee: bigint) => ({
      chainId: params.chainId,
      inputs: [input(10, 95_000_000n)],
      payouts: [{ address: to(10), value: 90_000_000n }],
      change: { index: 10, value: 5_000_000n - fee },
    });
    expect(await refusal(batch(10_000n))).toBe('signed');
    expect(await refusal(batch(20_000n))).toBe('signed');
    expect(
      await refusal({
        chainId: params.chainId,
        inputs: [input(11, 20_000_000n)],
        payouts: [{ address: to(11), value: 15_000_000n }],
        change: { index: 11, value: 4_990_000n },
      }),
    ).toBe('over_daily_limit');
  });
});
