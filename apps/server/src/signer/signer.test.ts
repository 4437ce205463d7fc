import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { type Address, encodeFunctionData, erc20Abi, parseEther, parseTransaction, recoverTransactionAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_TEST_MNEMONIC, MnemonicKeyring } from '../chain/keys.ts';
import { MAC_HEADER, NONCE_HEADER, requestMac, TIMESTAMP_HEADER } from './channel.ts';
import { SignerClient, SignerKeyring } from './client.ts';
import { DAY_MS, SignerJournal } from './journal.ts';
import { readPolicy, signerPolicySchema } from './policy.ts';
import { createSignerServer, listen } from './server.ts';
import { SignerService } from './service.ts';

/**
 * The signer called directly with forged requests (docs/decisions/039-separate-signer.md): a
 * wrong MAC, a replayed nonce, a stale timestamp, and transactions beyond its policy are all
 * refused, whatever the caller says; what it signs is journaled and counted across a restart.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-signer-'));
const keys = new MnemonicKeyring(generateMnemonic(wordlist, 256));
const secret = randomBytes(32);
const usdt = '0xdAC17F958D2ee523a2206206994597C13D831ec7' as const;
const cold = '0x1111111111111111111111111111111111111111' as const;
const stranger = '0x8ba1f109551bD432803012645Ac136ddd64DBA72' as const;
const policy = signerPolicySchema.parse({
  chains: [
    {
      chainId: 31337,
      coldAddress: cold,
      maxFeeWei: parseEther('0.01').toString(),
      topUpMaxWei: parseEther('0.001').toString(),
      topUpPerDayWei: parseEther('1').toString(),
      native: { code: 'ETH', perTxMax: parseEther('1').toString(), perDayMax: parseEther('2.5').toString() },
      tokens: [{ code: 'USDT', contract: usdt, perTxMax: '1000000000', perDayMax: '5000000000' }],
    },
  ],
});
const log = { info() {}, warn() {} };
let now = Date.UTC(2026, 10, 26, 12);
const clock = () => now;

let server: Server;
let url: string;
let journal: SignerJournal;
const journalFile = path.join(dir, 'journal.jsonl');

async function startSigner() {
  journal = new SignerJournal(journalFile, now);
  server = createSignerServer(new SignerService(keys, policy, journal, clock), secret, log, clock);
  url = `http://127.0.0.1:${await listen(server, '127.0.0.1', 0)}`;
}
async function stopSigner() {
  await new Promise((r) => server.close(r));
  journal.close();
}

/** A request made by hand: any secret, timestamp and nonce the test chooses. */
async function forged(
  pathName: string,
  body: object,
  opts: { key?: Buffer; timestamp?: number; nonce?: string } = {},
): Promise<{ status: number; body: { refused?: string; signed?: `0x${string}`; message?: string } }> {
  const text = JSON.stringify(body);
  const timestamp = String(opts.timestamp ?? now);
  const nonce = opts.nonce ?? randomBytes(16).toString('hex');
  const res = await fetch(`${url}${pathName}`, {
    method: 'POST',
    headers: {
      [TIMESTAMP_HEADER]: timestamp,
      [NONCE_HEADER]: nonce,
      [MAC_HEADER]: requestMac(opts.key ?? secret, 'POST', pathName, timestamp, nonce, text),
    },
    body: text,
  });
  return { status: res.status, body: await res.json() };
}

let nextNonce = 0;
const tx = (over: Record<string, unknown> = {}) => ({
  type: 'legacy',
  chainId: 31337,
  nonce: nextNonce++,
  to: stranger,
  value: parseEther('0.1').toString(),
  data: '0x',
  gas: '21000',
  gasPrice: '1000000000',
  ...over,
});
const hot = { kind: 'hot' } as const;
const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });

describe('the separate signer, called directly', () => {
  beforeAll(startSigner);
  afterAll(async () => {
    await stopSigner();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    now += 1000;
  });

  it('signs a payout within its limits, and the signature is the hot wallet’s', async () => {
    const res = await forged('/v1/sign', { key: hot, tx: tx() });
    expect(res.status).toBe(200);
    const signed = res.body.signed!;
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(keys.hotAddress);
    expect(parseTransaction(signed)).toMatchObject({ to: stranger.toLowerCase(), value: parseEther('0.1'), chainId: 31337 });
  });

  it('refuses a bad MAC, a replayed nonce and a stale timestamp at the channel', async () => {
    expect(await forged('/v1/sign', { key: hot, tx: tx() }, { key: randomBytes(32) })).toEqual({
      status: 401,
      body: { refused: 'bad_mac' },
    });
    const nonce = randomBytes(16).toString('hex');
    expect((await forged('/v1/info', {}, { nonce })).status).toBe(200);
    expect(await forged('/v1/info', {}, { nonce })).toEqual({ status: 401, body: { refused: 'replayed' } });
    expect(await forged('/v1/info', {}, { timestamp: now - 31_000 })).toEqual({ status: 401, body: { refused: 'stale' } });
    expect(await forged('/v1/info', {}, { timestamp: now + 31_000 })).toEqual({ status: 401, body: { refused: 'stale' } });
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ ok: true });
  });

  it('a client with the wrong secret gets nothing it would trust; with the right one, the xpub and hot address', async () => {
    await expect(SignerKeyring.connect(new SignerClient(url, randomBytes(32), clock))).rejects.toThrow(/bad_answer/);
    const ring = await SignerKeyring.connect(new SignerClient(url, secret, clock));
    expect([ring.xpub, ring.hotAddress, ring.depositAddress(7)]).toEqual([keys.xpub, keys.hotAddress, keys.depositAddress(7)]);
    await expect(ring.hotAccount().signMessage({ message: 'hi' })).rejects.toThrow(/transactions only/);
  });

  it('refuses a payout over the per-transaction limit, another chain id, a fee over its cap', async () => {
    expect((await forged('/v1/sign', { key: hot, tx: tx({ value: parseEther('1.01').toString() }) })).body.refused).toBe('over_tx_limit');
    expect((await forged('/v1/sign', { key: hot, tx: tx({ chainId: 1 }) })).body.refused).toBe('unknown_chain');
    expect((await forged('/v1/sign', { key: hot, tx: tx({ gasPrice: '1000000000000' }) })).body.refused).toBe('fee_over_cap');
  });

  it('refuses a token it does not know, and calls other than transfer on one it knows', async () => {
    const other = '0x2222222222222222222222222222222222222222';
    expect((await forged('/v1/sign', { key: hot, tx: tx({ to: other, value: '0', data: transfer(stranger, 5n) }) })).body.refused).toBe(
      'unknown_contract',
    );
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [stranger, 10n ** 30n] });
    expect((await forged('/v1/sign', { key: hot, tx: tx({ to: usdt, value: '0', data: approve }) })).body.refused).toBe('not_a_transfer');
    expect(
      (await forged('/v1/sign', { key: hot, tx: tx({ to: usdt, value: '0', data: transfer(stranger, 1_000_000_001n) }) })).body.refused,
    ).toBe('over_tx_limit');
    expect((await forged('/v1/sign', { key: hot, tx: tx({ to: usdt, value: '0', data: transfer(stranger, 5_000_000n) }) })).status).toBe(
      200,
    );
  });

  it('sweeps only to the hot wallet or its own cold address', async () => {
    const sweep = (to: Address, data = '0x') => forged('/v1/sign', { key: { kind: 'deposit', index: 3 }, tx: tx({ to, data }) });
    expect((await sweep(stranger)).body.refused).toBe('sweep_to_stranger');
    expect(
      (await forged('/v1/sign', { key: { kind: 'deposit', index: 3 }, tx: tx({ to: usdt, value: '0', data: transfer(stranger, 1n) }) }))
        .body.refused,
    ).toBe('sweep_to_stranger');
    const ok = await sweep(keys.hotAddress);
    expect(ok.status).toBe(200);
    expect(await recoverTransactionAddress({ serializedTransaction: ok.body.signed as never })).toBe(keys.depositAddress(3));
    expect((await sweep(cold)).status).toBe(200);
  });

  it('tops up only the deposit address it derives from the claimed index, up to the cap', async () => {
    const topUp = (to: Address, index: number, value = parseEther('0.0005')) =>
      forged('/v1/sign', { key: hot, hint: { purpose: 'gas_topup', depositIndex: index }, tx: tx({ to, value: value.toString() }) });
    expect((await topUp(stranger, 4)).body.refused).toBe('topup_not_derived');
    expect((await topUp(keys.depositAddress(5), 4)).body.refused).toBe('topup_not_derived');
    expect((await topUp(keys.depositAddress(4), 4, parseEther('0.002'))).body.refused).toBe('topup_over_cap');
    expect((await topUp(keys.depositAddress(4), 4)).status).toBe(200);
  });

  it('moves hot -> cold only to its own cold address; a zero-value self-transfer cancels a nonce', async () => {
    expect((await forged('/v1/sign', { key: hot, tx: tx({ to: cold, value: parseEther('50').toString() }) })).status).toBe(200);
    expect(
      (await forged('/v1/sign', { key: hot, hint: { purpose: 'cold' }, tx: tx({ value: parseEther('50').toString() }) })).body.refused,
    ).toBe('over_tx_limit');
    expect((await forged('/v1/sign', { key: hot, tx: tx({ to: keys.hotAddress, value: '0' }) })).status).toBe(200);
    expect((await forged('/v1/sign', { key: hot, tx: tx({ to: keys.hotAddress, value: '1' }) })).body.refused).toBe('to_self');
  });

  it('keeps the daily limit across a restart; a fee bump of the same nonce is not counted twice', async () => {
    // so far 0.1 ETH of payouts; 2.5 ETH a day
    const first = tx({ value: parseEther('1').toString() });
    expect((await forged('/v1/sign', { key: hot, tx: first })).status).toBe(200);
    expect((await forged('/v1/sign', { key: hot, tx: { ...first, gasPrice: '2000000000' } })).status).toBe(200);
    expect((await forged('/v1/sign', { key: hot, tx: tx({ value: parseEther('1').toString() }) })).status).toBe(200);
    await stopSigner();
    await startSigner();
    const over = await forged('/v1/sign', { key: hot, tx: tx({ value: parseEther('0.5').toString() }) });
    expect(over.body.refused).toBe('over_daily_limit');
    expect((await forged('/v1/sign', { key: hot, tx: tx({ value: parseEther('0.3').toString() }) })).status).toBe(200);
    now += DAY_MS;
    expect((await forged('/v1/sign', { key: hot, tx: tx({ value: parseEther('1').toString() }) })).status).toBe(200);
  });

  it('journals every signature in a hash chain; an edited journal stops the signer at start', async () => {
    const lines = fs
      .readFileSync(journalFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(8);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(new Set(lines.map((l) => l.purpose))).toEqual(new Set(['withdrawal', 'sweep', 'gas_topup', 'cold', 'cancel']));
    expect(fs.statSync(journalFile).mode & 0o777).toBe(0o600);
    const edited = path.join(dir, 'edited.jsonl');
    fs.writeFileSync(edited, fs.readFileSync(journalFile, 'utf8').replace(/"amount":"1000000000000000000"/, '"amount":"1"'));
    expect(() => new SignerJournal(edited, now)).toThrow(/broken at line/);
  });

  it('refuses to serve the public anvil test mnemonic on a chain that is not local', () => {
    const file = path.join(dir, 'policy.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        chains: [{ ...JSON.parse(JSON.stringify(policy.chains[0], (_k, v) => (typeof v === 'bigint' ? String(v) : v))), chainId: 1 }],
      }),
    );
    expect(() => readPolicy(file, ANVIL_TEST_MNEMONIC)).toThrow(/test mnemonic/);
    expect(readPolicy(file, generateMnemonic(wordlist, 128)).chains[0]?.chainId).toBe(1);
  });
});
