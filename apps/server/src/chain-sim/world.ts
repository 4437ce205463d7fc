import {
  decodeFunctionData,
  encodeEventTopics,
  erc20Abi,
  type Hex,
  keccak256,
  pad,
  parseTransaction,
  recoverTransactionAddress,
  toHex,
} from 'viem';
import { TRANSFER_EVENT } from '../chain/evm.ts';

/**
 * The chain double's data: the world state (ETH and ERC-20 balances, nonces) that each block
 * keeps a copy of after it (so a reorg restores its parent's state), the transactions as the
 * node decodes them, and how one transaction changes the state. Addresses are lowercase.
 */

export type Addr = `0x${string}`;

export interface WorldState {
  eth: Map<Addr, bigint>;
  /** token contract -> holder -> balance */
  tokens: Map<Addr, Map<Addr, bigint>>;
  nonces: Map<Addr, number>;
}

export function copyState(s: WorldState): WorldState {
  return {
    eth: new Map(s.eth),
    tokens: new Map([...s.tokens].map(([t, m]) => [t, new Map(m)])),
    nonces: new Map(s.nonces),
  };
}

/** A transaction the node accepted: decoded from its raw form, its sender recovered. */
export interface SimTx {
  hash: Hex;
  raw: Hex;
  from: Addr;
  to: Addr | null;
  nonce: number;
  value: bigint;
  gas: bigint;
  gasPrice: bigint;
  data: Hex | undefined;
}

export interface SimLog {
  address: Addr;
  topics: Hex[];
  data: Hex;
}

export interface MinedTx {
  tx: SimTx;
  success: boolean;
  gasUsed: bigint;
  logs: SimLog[];
}

export interface Block {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
  baseFee: bigint;
  txs: MinedTx[];
  /** the world after this block */
  post: WorldState;
}

/** Gas a plain ETH transfer uses; an ERC-20 transfer uses TOKEN_TRANSFER_GAS (what eth_estimateGas answers). */
export const NATIVE_GAS = 21_000n;
export const TOKEN_TRANSFER_GAS = 51_000n;

export async function decodeRaw(raw: Hex): Promise<SimTx> {
  const parsed = parseTransaction(raw);
  if (parsed.nonce === undefined || parsed.gas === undefined) throw rpcError(-32602, 'invalid transaction: nonce and gas required');
  const gasPrice = parsed.gasPrice ?? parsed.maxFeePerGas;
  if (gasPrice === undefined) throw rpcError(-32602, 'invalid transaction: no gas price');
  const from = (await recoverTransactionAddress({ serializedTransaction: raw as never })).toLowerCase() as Addr;
  return {
    hash: keccak256(raw),
    raw,
    from,
    to: parsed.to ? (parsed.to.toLowerCase() as Addr) : null,
    nonce: parsed.nonce,
    value: parsed.value ?? 0n,
    gas: parsed.gas,
    gasPrice,
    data: parsed.data && parsed.data !== '0x' ? parsed.data : undefined,
  };
}

/** An error as a JSON-RPC node answers it (viem keeps the message in `details`). */
export function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/** A token transfer's recipient and amount, or null when `data` is not transfer(address,uint256). */
export function tokenTransfer(data: Hex | undefined): { to: Addr; amount: bigint } | null {
  if (!data) return null;
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data });
    if (call.functionName !== 'transfer') return null;
    const [to, amount] = call.args as [string, bigint];
    return { to: to.toLowerCase() as Addr, amount };
  } catch {
    return null;
  }
}

export const ethOf = (s: WorldState, a: Addr) => s.eth.get(a) ?? 0n;
export const tokenOf = (s: WorldState, token: Addr, a: Addr) => s.tokens.get(token)?.get(a) ?? 0n;
const addEth = (s: WorldState, a: Addr, d: bigint) => s.eth.set(a, ethOf(s, a) + d);

function addToken(s: WorldState, token: Addr, a: Addr, d: bigint) {
  let m = s.tokens.get(token);
  if (!m) {
    m = new Map();
    s.tokens.set(token, m);
  }
  m.set(a, (m.get(a) ?? 0n) + d);
}

/** Gas the call would use, or an error message when it reverts (eth_estimateGas, and execution). */
export function dryRun(s: WorldState, tokens: ReadonlySet<Addr>, from: Addr, to: Addr | null, value: bigint, data: Hex | undefined) {
  if (to && tokens.has(to)) {
    const t = tokenTransfer(data);
    if (!t || value > 0n) return { error: 'execution reverted' };
    if (tokenOf(s, to, from) < t.amount) return { error: 'execution reverted: ERC20: transfer amount exceeds balance' };
    return { gas: TOKEN_TRANSFER_GAS };
  }
  if (ethOf(s, from) < value) return { error: 'insufficient funds for transfer' };
  return { gas: NATIVE_GAS };
}

/**
 * Applies a transaction whose nonce is next and whose sender can pay value + gas x price:
 * gas is charged (gasUsed x price), a reverted token transfer still pays its gas.
 */
export function execute(s: WorldState, tokens: ReadonlySet<Addr>, tx: SimTx): MinedTx {
  s.nonces.set(tx.from, (s.nonces.get(tx.from) ?? 0) + 1);
  const run = dryRun(s, tokens, tx.from, tx.to, tx.value, tx.data);
  const gasUsed = 'gas' in run && run.gas !== undefined && run.gas <= tx.gas ? run.gas : tx.gas;
  addEth(s, tx.from, -gasUsed * tx.gasPrice);
  if ('error' in run || run.gas === undefined || run.gas > tx.gas) return { tx, success: false, gasUsed, logs: [] };
  const transfer = tx.to && tokens.has(tx.to) ? tokenTransfer(tx.data) : null;
  if (transfer && tx.to) {
    addToken(s, tx.to, tx.from, -transfer.amount);
    addToken(s, tx.to, transfer.to, transfer.amount);
    const topics = encodeEventTopics({ abi: [TRANSFER_EVENT], eventName: 'Transfer', args: { from: tx.from, to: transfer.to } }) as Hex[];
    return { tx, success: true, gasUsed, logs: [{ address: tx.to, topics, data: pad(toHex(transfer.amount)) }] };
  }
  addEth(s, tx.from, -tx.value);
  if (tx.to) addEth(s, tx.to, tx.value);
  return { tx, success: true, gasUsed, logs: [] };
}

/** Credits balances out of thin air (the genesis of the double: the hot wallet's float, the depositors' coins). */
export function mint(s: WorldState, a: Addr, eth: bigint, token?: { contract: Addr; amount: bigint }): void {
  addEth(s, a, eth);
  if (token) addToken(s, token.contract, a, token.amount);
}
