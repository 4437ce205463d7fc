import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { createWalletClient, erc20Abi, type Hash, http, parseEther } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainDeposit } from './adapter.ts';
import { createEvmClient, EvmChainAdapter, isValidEvmAddress, normalizeEvmAddress } from './evm.ts';
import { HdWallet } from './keys.ts';
import { type LocalChain, startLocalChain } from './local-chain.ts';

describe('EVM address validation (EIP-55)', () => {
  const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  it('accepts checksummed, all-lowercase and all-uppercase hex', () => {
    expect(isValidEvmAddress(checksummed)).toBe(true);
    expect(isValidEvmAddress(checksummed.toLowerCase())).toBe(true);
    expect(isValidEvmAddress(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(true);
    expect(normalizeEvmAddress(checksummed.toLowerCase())).toBe(checksummed);
    expect(normalizeEvmAddress(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed);
  });
  it('refuses a wrong checksum, bad length, prefix or characters', () => {
    expect(isValidEvmAddress(checksummed.replace('aA', 'AA'))).toBe(false);
    expect(normalizeEvmAddress(checksummed.replace('aA', 'Aa'))).toBeNull();
    expect(normalizeEvmAddress(checksummed.slice(0, -1))).toBeNull();
    expect(normalizeEvmAddress(`${checksummed}0`)).toBeNull();
    expect(normalizeEvmAddress(`0X${checksummed.slice(2).toLowerCase()}`)).toBeNull();
    expect(normalizeEvmAddress(checksummed.slice(2))).toBeNull();
    expect(normalizeEvmAddress(`0x${'g'.repeat(40)}`)).toBeNull();
    expect(normalizeEvmAddress(` ${checksummed}`)).toBeNull();
    expect(normalizeEvmAddress('')).toBeNull();
  });
});

describe('EvmChainAdapter on anvil', () => {
  const wallet = new HdWallet(generateMnemonic(wordlist, 256));
  const hot = wallet.hotAccount();
  let chain: LocalChain;
  let adapter: EvmChainAdapter;
  const assets = [
    { networkId: 1, contract: null },
    { networkId: 2, contract: '' }, // replaced by USDT below
    { networkId: 3, contract: '' }, // USDC
  ];
  const watched = new Set([0, 1, 2, 3].map((i) => wallet.depositAddress(i)));
  const expected: Array<Pick<ChainDeposit, 'networkId' | 'txHash' | 'to' | 'value' | 'from'>> = [];
  let reverted: Hash;

  beforeAll(async () => {
    chain = await startLocalChain({ hot: hot.address });
    const client = createEvmClient(chain.url);
    adapter = new EvmChainAdapter({ client, xpub: wallet.xpub });
    assets[1] = { networkId: 2, contract: chain.tokens.USDT };
    assets[2] = { networkId: 3, contract: chain.tokens.USDC.toLowerCase() }; // any case is fine
    const hotWallet = createWalletClient({ account: hot, chain: { ...foundry, id: chain.chainId }, transport: http(chain.url) });
    const [a0, a1, a2, a3] = [0, 1, 2, 3].map((i) => wallet.depositAddress(i)) as [
      `0x${string}`,
      `0x${string}`,
      `0x${string}`,
      `0x${string}`,
    ];

    // token deposit by mint (faucet), token transfer from the hot wallet, native from the faucet and from hot
    expected.push({
      networkId: 2,
      txHash: await chain.faucet(a0, 'USDT', 250_000_000n),
      to: a0,
      value: 250_000_000n,
      from: '0x0000000000000000000000000000000000000000',
    });
    expected.push({
      networkId: 3,
      txHash: await hotWallet.writeContract({ address: chain.tokens.USDC, abi: erc20Abi, functionName: 'transfer', args: [a1, 5n] }),
      to: a1,
      value: 5n,
      from: hot.address,
    });
    expected.push({
      networkId: 1,
      txHash: await chain.faucet(a2, 'ETH', parseEther('1.5')),
      to: a2,
      value: parseEther('1.5'),
      from: chain.faucetAddress,
    });
    expected.push({ networkId: 1, txHash: await hotWallet.sendTransaction({ to: a3, value: 1n }), to: a3, value: 1n, from: hot.address });
    // not deposits: to an unwatched address, zero value, a token transfer of 0
    await chain.faucet('0x000000000000000000000000000000000000dEaD', 'USDT', 1n);
    await hotWallet.sendTransaction({ to: a0, value: 0n });
    await hotWallet.writeContract({ address: chain.tokens.USDT, abi: erc20Abi, functionName: 'transfer', args: [a0, 0n] });
    // a reverted native transfer: ETH to the token contract (no receive function), watched for this test
    reverted = await hotWallet.sendTransaction({ to: chain.tokens.USDT, value: 7n, gas: 60_000n });
    const receipt = await chain.client.waitForTransactionReceipt({ hash: reverted });
    expect(receipt.status).toBe('reverted');
  });
  afterAll(() => chain?.stop());

  it('head, blockHeader and chainId', async () => {
    expect(await adapter.chainId()).toBe(31337);
    const head = await adapter.head();
    expect(head.number).toBeGreaterThan(5n);
    const header = await adapter.blockHeader(head.number);
    expect(header?.hash).toBe(head.hash);
    const parent = await adapter.blockHeader(head.number - 1n);
    expect(header?.parentHash).toBe(parent?.hash);
    expect(await adapter.blockHeader(head.number + 100n)).toBeNull();
  });

  it('scanDeposits finds token and native deposits, and only those', async () => {
    const head = await adapter.head();
    const watchedPlusToken = new Set([...watched, chain.tokens.USDT]);
    const t0 = performance.now();
    const found = await adapter.scanDeposits(0n, head.number, watchedPlusToken, assets);
    console.log(`scanDeposits over ${head.number + 1n} blocks: ${(performance.now() - t0).toFixed(0)} ms`);
    expect(found.map((d) => d.txHash)).not.toContain(reverted);
    expect(found.map(({ networkId, txHash, to, value, from }) => ({ networkId, txHash, to, value, from }))).toEqual(expected);
    for (const d of found) {
      const block = await chain.client.getBlock({ blockNumber: d.blockNumber });
      expect(d.blockHash).toBe(block.hash);
      expect(d.logIndex).toBe(d.networkId === 1 ? -1 : 0);
    }
  });

  it('watched addresses in any case; ranges, chunking and client-side filtering agree', async () => {
    const head = await adapter.head();
    const full = await adapter.scanDeposits(0n, head.number, watched, assets);
    expect(full).toHaveLength(4);
    const lower = new Set([...watched].map((a) => a.toLowerCase()));
    expect(await adapter.scanDeposits(0n, head.number, lower, assets)).toEqual(full);
    const small = new EvmChainAdapter({
      client: adapter.client,
      xpub: wallet.xpub,
      logChunkSize: 2,
      blockBatchSize: 3,
      topicFilterLimit: 0,
    });
    expect(await small.scanDeposits(0n, head.number, watched, assets)).toEqual(full);
    // split into two ranges
    const first = full[1]!.blockNumber;
    const parts = [
      ...(await adapter.scanDeposits(0n, first, watched, assets)),
      ...(await adapter.scanDeposits(first + 1n, head.number, watched, assets)),
    ];
    expect(parts).toEqual(full);
    // only the native asset / only one token / nothing watched
    expect((await adapter.scanDeposits(0n, head.number, watched, [assets[0]!])).map((d) => d.networkId)).toEqual([1, 1]);
    expect((await adapter.scanDeposits(0n, head.number, watched, [assets[1]!])).map((d) => d.networkId)).toEqual([2]);
    expect(await adapter.scanDeposits(0n, head.number, new Set(), assets)).toEqual([]);
    expect(await adapter.scanDeposits(5n, 4n, watched, assets)).toEqual([]);
  });

  it('derives deposit addresses and normalizes like the helpers', () => {
    expect(adapter.deriveDepositAddress(2)).toBe(wallet.depositAddress(2));
    expect(adapter.normalizeAddress(wallet.depositAddress(2).toLowerCase())).toBe(wallet.depositAddress(2));
    expect(adapter.normalizeAddress('nope')).toBeNull();
  });

  it('the client does not cache the block number', async () => {
    const client = createEvmClient(chain.url);
    const before = await client.getBlockNumber();
    await chain.mine(1);
    expect(await client.getBlockNumber()).toBe(before + 1n);
  });
});
