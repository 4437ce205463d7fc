import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWalletClient, erc20Abi, http, parseEther } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HdWallet } from './keys.ts';
import { HOT_FUNDING, type LocalChain, startLocalChain } from './local-chain.ts';
import { testTokenAbi } from './test-token.ts';

const wallet = new HdWallet('test test test test test test test test test test test junk');
const hot = wallet.hotAccount();
const user = wallet.depositAddress(10);

const dirs: string[] = [];
const chains: LocalChain[] = [];
afterAll(async () => {
  await Promise.all(chains.map((c) => c.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
async function start(opts: Omit<Parameters<typeof startLocalChain>[0], 'hot'> = {}) {
  const c = await startLocalChain({ hot: hot.address, ...opts });
  chains.push(c);
  return c;
}
const balanceOf = (c: LocalChain, token: `0x${string}`, address: `0x${string}`) =>
  c.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] });

describe('startLocalChain (in memory)', () => {
  let chain: LocalChain;
  beforeAll(async () => {
    const t0 = performance.now();
    chain = await start();
    console.log(`local chain (anvil + 2 tokens + hot funding) ready in ${(performance.now() - t0).toFixed(0)} ms`);
  });

  it('deploys USDT and USDC (6 decimals, owned by the faucet) and funds the hot wallet', async () => {
    expect(chain.chainId).toBe(31337);
    for (const [symbol, name] of [
      ['USDT', 'Tether USD'],
      ['USDC', 'USD Coin'],
    ] as const) {
      const address = chain.tokens[symbol];
      const read = <F extends 'symbol' | 'name' | 'decimals' | 'owner'>(functionName: F) =>
        chain.client.readContract({ address, abi: testTokenAbi, functionName });
      expect(await read('symbol')).toBe(symbol);
      expect(await read('name')).toBe(name);
      expect(await read('decimals')).toBe(6);
      expect(await read('owner')).toBe(chain.faucetAddress);
      expect(await balanceOf(chain, address, hot.address)).toBe(HOT_FUNDING.tokens);
    }
    expect(chain.faucetAddress).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(await chain.client.getBalance({ address: hot.address })).toBe(parseEther('1000'));
  });

  it('faucet delivers ETH, USDT and USDC, also when called concurrently', async () => {
    const hashes = await Promise.all([
      chain.faucet(user, 'ETH', parseEther('2')),
      chain.faucet(user, 'USDT', 100_000_000n),
      chain.faucet(user, 'USDC', 3n),
      chain.faucet(user, 'USDT', 1n),
    ]);
    const receipts = await Promise.all(hashes.map((hash) => chain.client.waitForTransactionReceipt({ hash })));
    expect(receipts.every((r) => r.status === 'success')).toBe(true);
    expect(await chain.client.getBalance({ address: user })).toBe(parseEther('2'));
    expect(await balanceOf(chain, chain.tokens.USDT, user)).toBe(100_000_001n);
    expect(await balanceOf(chain, chain.tokens.USDC, user)).toBe(3n);
    await expect(chain.faucet(user, 'ETH', 0n)).rejects.toThrow(/positive/);
    await expect(chain.faucet('0x1234' as `0x${string}`, 'ETH', 1n)).rejects.toThrow(/invalid address/);
  });

  it('setBlocked makes a transfer to or from the address revert', async () => {
    const hotWallet = createWalletClient({ account: hot, chain: { ...foundry, id: chain.chainId }, transport: http(chain.url) });
    const blocked = wallet.depositAddress(11);
    const set = await chain.setBlocked('USDT', blocked, true);
    expect(set.status).toBe('success');
    // explicit gas: estimation would refuse it before it reaches a block
    const hash = await hotWallet.writeContract({
      address: chain.tokens.USDT,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [blocked, 1_000_000n],
      gas: 100_000n,
    });
    const receipt = await chain.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');
    expect(await balanceOf(chain, chain.tokens.USDT, blocked)).toBe(0n);
    await expect(chain.faucet(blocked, 'USDT', 1n)).rejects.toThrow(/AddressBlocked|revert/);
    // other tokens and other addresses are unaffected; unblocking restores transfers
    await chain.faucet(blocked, 'USDC', 1n);
    await chain.setBlocked('USDT', blocked, false);
    const ok = await hotWallet.writeContract({ address: chain.tokens.USDT, abi: erc20Abi, functionName: 'transfer', args: [blocked, 1n] });
    expect((await chain.client.waitForTransactionReceipt({ hash: ok })).status).toBe('success');
  });

  it('only the owner can mint and block', async () => {
    const hotWallet = createWalletClient({ account: hot, chain: { ...foundry, id: chain.chainId }, transport: http(chain.url) });
    await expect(
      hotWallet.writeContract({ address: chain.tokens.USDC, abi: testTokenAbi, functionName: 'mint', args: [hot.address, 1n] }),
    ).rejects.toThrow(/NotOwner|revert/);
    await expect(
      hotWallet.writeContract({ address: chain.tokens.USDC, abi: testTokenAbi, functionName: 'setBlocked', args: [user, true] }),
    ).rejects.toThrow(/NotOwner|revert/);
  });
});

describe('startLocalChain with a data dir', () => {
  it('keeps tokens and balances across a restart, without redeploying or refunding', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'coffer-local-')), 'data');
    dirs.push(dataDir);
    const first = await start({ dataDir });
    await first.client.waitForTransactionReceipt({ hash: await first.faucet(user, 'USDT', 42n) });
    await first.client.waitForTransactionReceipt({ hash: await first.faucet(user, 'ETH', 7n) });
    const nonce = await first.client.getTransactionCount({ address: first.faucetAddress });
    const head = await first.client.getBlockNumber();
    await first.stop();
    expect(existsSync(join(dataDir, 'anvil-state.json'))).toBe(true);
    const saved = JSON.parse(readFileSync(join(dataDir, 'local-chain.json'), 'utf8'));
    expect(saved.tokens).toEqual(first.tokens);

    const second = await start({ dataDir });
    expect(second.tokens).toEqual(first.tokens);
    expect(await second.client.getBlockNumber()).toBe(head);
    expect(await second.client.getTransactionCount({ address: second.faucetAddress })).toBe(nonce);
    expect(await balanceOf(second, second.tokens.USDT, user)).toBe(42n);
    expect(await second.client.getBalance({ address: user })).toBe(7n);
    expect(await balanceOf(second, second.tokens.USDT, hot.address)).toBe(HOT_FUNDING.tokens);
    await second.stop();
  });

  it('redeploys when the saved state is gone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'coffer-local-'));
    dirs.push(dataDir);
    const first = await start({ dataDir });
    await first.stop();
    rmSync(join(dataDir, 'anvil-state.json'));
    const second = await start({ dataDir });
    expect(await second.client.getCode({ address: second.tokens.USDT })).toMatch(/^0x60/);
    expect(await balanceOf(second, second.tokens.USDC, hot.address)).toBe(HOT_FUNDING.tokens);
    await second.stop();
  });
});

describe('startLocalChain with blockTime', () => {
  it('sets up without waiting a block per step, and the faucet lands within a block time', async () => {
    const t0 = performance.now();
    const chain = await start({ blockTime: 1 });
    const setupMs = performance.now() - t0;
    expect(setupMs).toBeLessThan(1500);
    const t1 = performance.now();
    const hash = await chain.faucet(user, 'USDC', 9n);
    const receipt = await chain.client.waitForTransactionReceipt({ hash });
    console.log(`blockTime 1: setup ${setupMs.toFixed(0)} ms, faucet mined after ${(performance.now() - t1).toFixed(0)} ms`);
    expect(receipt.status).toBe('success');
    expect(performance.now() - t1).toBeLessThan(2500);
    await chain.stop();
  });
});
