import { readFileSync } from 'node:fs';
import { type Address, decodeFunctionData, erc20Abi, getAddress, type Hex, isAddress } from 'viem';
import { z } from 'zod';
import { assertMnemonicAllowed, type SignHint } from '../chain/keys.ts';
import { utxoParamsByChainId } from '../chain/utxo/params.ts';

/**
 * The signer's own policy (docs/decisions/039-separate-signer.md), read from its own
 * configuration file and never from the caller: which chains, which token contracts, the cold
 * address, and the limits in base units. Whatever the API asks beyond it is refused.
 */
const baseUnits = z
  .string()
  .regex(/^\d{1,78}$/, 'an amount in base units (wei, or the token’s smallest unit) as a decimal string')
  .transform((v) => BigInt(v));
const address = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), 'an 0x address')
  .transform((v) => getAddress(v));

const assetLimits = z.object({
  /** the currency's code, for the journal and the operator */
  code: z.string().regex(/^[A-Z0-9]{2,10}$/),
  /** most one payout may move */
  perTxMax: baseUnits,
  /** most all payouts of the last 24 hours may move together */
  perDayMax: baseUnits,
});

const chainPolicy = z.object({
  chainId: z.number().int().positive(),
  /** the only address hot -> cold moves (and sweeps, besides the hot wallet) may go to; null: none */
  coldAddress: address.nullable(),
  /** most gas x gas price one transaction may spend (wei) */
  maxFeeWei: baseUnits,
  /** most one gas top-up (hot wallet -> a deposit address) may send (wei) */
  topUpMaxWei: baseUnits,
  /** most all top-ups of the last 24 hours may send together (wei) */
  topUpPerDayWei: baseUnits,
  /** payout limits of the chain's native coin */
  native: assetLimits,
  /** the token contracts the signer knows, with their payout limits; any other contract is refused */
  tokens: z.array(assetLimits.extend({ contract: address })),
});

/** A UTXO chain (docs/decisions/051-utxo-payouts.md): its coin's payout limits and the most one transaction may pay the miner. */
const utxoChainPolicy = z.object({
  /** the network's synthetic chain id (chain/utxo/params.ts) */
  chainId: z.number().int().positive(),
  native: assetLimits,
  /** most one payout transaction may leave to the miner (base units) */
  maxFee: baseUnits,
});

export const signerPolicySchema = z.object({
  chains: z.array(chainPolicy).min(1),
  utxoChains: z.array(utxoChainPolicy).default([]),
});
export type UtxoChainPolicy = SignerPolicy['utxoChains'][number];
export type SignerPolicy = z.infer<typeof signerPolicySchema>;
export type ChainPolicy = SignerPolicy['chains'][number];

/** Reads and checks the policy file; the public anvil test mnemonic is refused for any chain that is not local. */
export function readPolicy(path: string, mnemonic: string): SignerPolicy {
  const parsed = signerPolicySchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`signer policy ${path}: ${first?.path.join('.')}: ${first?.message}`);
  }
  for (const chain of parsed.data.chains) assertMnemonicAllowed(mnemonic, chain.chainId);
  for (const chain of parsed.data.utxoChains) {
    const params = utxoParamsByChainId(chain.chainId);
    if (!params) throw new Error(`signer policy ${path}: utxoChains: ${chain.chainId} is not a UTXO network`);
    // the public test mnemonics hold worthless coins only on a local chain
    if (!params.local) assertMnemonicAllowed(mnemonic, 1);
  }
  return parsed.data;
}

/** The transaction fields the signer looks at (legacy or EIP-1559, decoded from the request). */
export interface TxFields {
  type: 'legacy' | 'eip1559';
  chainId: number;
  nonce: number;
  to: Address;
  value: bigint;
  data: Hex;
  gas: bigint;
  /** legacy gasPrice, or EIP-1559 maxFeePerGas: what one unit of gas may cost at most */
  feePerGas: bigint;
}

export type SignKey = { kind: 'hot' } | { kind: 'deposit'; index: number };
export type Purpose = 'withdrawal' | 'gas_topup' | 'sweep' | 'cold' | 'cancel';

/** A classified, permitted transaction (before the daily limits, which need the journal). */
export interface Classified {
  purpose: Purpose;
  /** 'native' or the token contract */
  asset: 'native' | Address;
  code: string;
  recipient: Address;
  amount: bigint;
  fee: bigint;
}

export type Refusal =
  | 'unknown_chain'
  | 'no_recipient'
  | 'fee_over_cap'
  | 'unknown_contract'
  | 'not_a_transfer'
  | 'value_with_call'
  | 'to_self'
  | 'topup_not_derived'
  | 'topup_over_cap'
  | 'topup_over_daily'
  | 'sweep_to_stranger'
  | 'over_tx_limit'
  | 'over_daily_limit';

export class PolicyRefusal extends Error {
  constructor(
    readonly refusal: Refusal,
    detail: string,
  ) {
    super(detail);
  }
}

export interface OwnAddresses {
  hot: Address;
  /** derives deposit address `index` from the signer's own key */
  deposit(index: number): Address;
}

const same = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

/** What moves where: the recipient and amount of a native transfer or of an ERC-20 transfer(to, amount). */
function decodeMove(chain: ChainPolicy, tx: TxFields): Pick<Classified, 'asset' | 'code' | 'recipient' | 'amount'> {
  if (tx.data === '0x') return { asset: 'native', code: chain.native.code, recipient: tx.to, amount: tx.value };
  const token = chain.tokens.find((t) => same(t.contract, tx.to));
  if (!token) throw new PolicyRefusal('unknown_contract', `contract ${tx.to} is not a token this signer knows on chain ${chain.chainId}`);
  if (tx.value !== 0n) throw new PolicyRefusal('value_with_call', 'a token transfer carries no ETH');
  let call: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>;
  try {
    call = decodeFunctionData({ abi: erc20Abi, data: tx.data });
  } catch {
    throw new PolicyRefusal('not_a_transfer', 'calldata is not an ERC-20 call');
  }
  if (call.functionName !== 'transfer')
    throw new PolicyRefusal('not_a_transfer', `only transfer(to, amount) is signed, not ${call.functionName}`);
  const [recipient, amount] = call.args as readonly [Address, bigint];
  return { asset: token.contract, code: token.code, recipient: getAddress(recipient), amount };
}

/**
 * Decides what a transaction is from the transaction itself (the hint only names the deposit
 * index a top-up claims to go to, which the signer derives and compares) and refuses anything
 * its policy does not allow. The daily limits are checked after this, against the journal.
 */
export function classify(policy: SignerPolicy, own: OwnAddresses, key: SignKey, tx: TxFields, hint?: SignHint): Classified {
  const chain = policy.chains.find((c) => c.chainId === tx.chainId);
  if (!chain) throw new PolicyRefusal('unknown_chain', `chain ${tx.chainId} is not in the signer's policy`);
  const fee = tx.gas * tx.feePerGas;
  if (fee > chain.maxFeeWei) throw new PolicyRefusal('fee_over_cap', `fee ${fee} wei above the signer's cap ${chain.maxFeeWei}`);
  const move = decodeMove(chain, tx);
  const to = move.recipient;
  if (key.kind === 'deposit') {
    if (!same(to, own.hot) && !same(chain.coldAddress, to)) {
      throw new PolicyRefusal('sweep_to_stranger', `a deposit key sends only to the hot wallet or the cold address, not ${to}`);
    }
    return { ...move, purpose: 'sweep', fee };
  }
  if (same(to, own.hot)) {
    // a zero-value self-transfer replaces a stuck nonce; anything else to itself is pointless
    if (move.asset === 'native' && move.amount === 0n) return { ...move, purpose: 'cancel', fee };
    throw new PolicyRefusal('to_self', 'the hot wallet sends value to itself only as a zero-value cancel');
  }
  if (same(chain.coldAddress, to)) return { ...move, purpose: 'cold', fee };
  if (hint?.purpose === 'gas_topup') {
    if (
      move.asset !== 'native' ||
      !Number.isSafeInteger(hint.depositIndex) ||
      hint.depositIndex < 0 ||
      !same(own.deposit(hint.depositIndex), to)
    ) {
      throw new PolicyRefusal('topup_not_derived', `${to} is not deposit address ${hint.depositIndex} as this signer derives it`);
    }
    if (move.amount > chain.topUpMaxWei)
      throw new PolicyRefusal('topup_over_cap', `top-up ${move.amount} wei above the cap ${chain.topUpMaxWei}`);
    return { ...move, purpose: 'gas_topup', fee };
  }
  const limits = move.asset === 'native' ? chain.native : chain.tokens.find((t) => t.contract === move.asset);
  if (!limits || move.amount > limits.perTxMax) {
    throw new PolicyRefusal(
      'over_tx_limit',
      `payout of ${move.amount} ${move.code} base units above the per-transaction limit ${limits?.perTxMax}`,
    );
  }
  return { ...move, purpose: 'withdrawal', fee };
}

/** The 24-hour cap a purpose/asset is counted against, if any. */
export function dailyCap(policy: SignerPolicy, chainId: number, c: Classified): { cap: bigint; refusal: Refusal } | null {
  const chain = policy.chains.find((x) => x.chainId === chainId);
  if (!chain) return null;
  if (c.purpose === 'gas_topup') return { cap: chain.topUpPerDayWei, refusal: 'topup_over_daily' };
  if (c.purpose !== 'withdrawal') return null;
  const limits = c.asset === 'native' ? chain.native : chain.tokens.find((t) => t.contract === c.asset);
  return limits ? { cap: limits.perDayMax, refusal: 'over_daily_limit' } : null;
}
