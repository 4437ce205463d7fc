import { ErrorCode, WITHDRAW_FEE_QUOTE_TTL_SECONDS, type WithdrawQuoteBody, type WithdrawQuoteData } from '@coffer/contract';
import { type Address, encodeFunctionData, erc20Abi, getAddress, type PublicClient, parseUnits } from 'viem';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { formatAmount, parseAmount } from '../../ledger/amounts.ts';
import { type AddressRules, payableDestination } from '../address-book/index.ts';
import { networkFor } from '../networks/index.ts';
import { type RateSource, rateAfterSpread } from '../swap/index.ts';
import { priceFee, tokensPerCoin } from './fee-price.ts';

/** Gas of a plain coin transfer to an account without code. */
export const NATIVE_TRANSFER_GAS = 21_000n;
/**
 * Gas assumed for a token transfer when the node cannot estimate it (the hot wallet does not
 * hold the amount yet): an ERC-20 transfer to a fresh holder costs about 52,000.
 */
export const TOKEN_TRANSFER_GAS_FALLBACK = 65_000n;
/** Recipient of the estimate when the user has not typed an address yet: a fresh holder, the dearer case. */
const ESTIMATE_RECIPIENT = '0x000000000000000000000000000000000000fee1' as Address;

/** What the quote needs of an EVM chain: the node's client and the hot wallet that pays. */
export interface EvmFeeChain {
  chainId: number;
  client: PublicClient;
  hot: Address;
}

/** What it needs of a UTXO chain: the fee rate a payout pays now (base units per vbyte, before the network's cap). */
export interface UtxoFeeChain {
  chainId: number;
  feeRate(networkId: number): Promise<bigint>;
}

export type FeeChain = EvmFeeChain | UtxoFeeChain;

/**
 * The vbytes a UTXO withdrawal is priced at: its output (43 vB for the largest, P2TR/P2WSH)
 * and one input it may need (68 vB for P2WPKH), the batch's overhead shared.
 */
export const UTXO_PAYOUT_VBYTES = 111n;

interface QuoteNetwork {
  native: boolean;
  contract: string | null;
  token_decimals: number;
  currency_decimals: number;
  native_currency_id: number | null;
  native_decimals: number | null;
  fee_margin_percent: number;
  gas_price_cap_wei: string | null;
}

const unavailable = (en: string, zh: string) => new BizError(ErrorCode.CURRENCY_UNAVAILABLE, { 'en-US': en, 'zh-CN': zh });
const NODE_DOWN = () => unavailable('the network is unavailable (no chain node answers)', '网络暂不可用（区块链节点无响应）');

/** The chain's gas price now: the higher of eth_gasPrice and the next block's base fee plus the median tip. */
export async function chainGasPrice(client: PublicClient): Promise<bigint> {
  const [price, history] = await Promise.all([client.getGasPrice(), client.getFeeHistory({ blockCount: 1, rewardPercentiles: [50] })]);
  const next = (history.baseFeePerGas.at(-1) ?? 0n) + (history.reward?.[0]?.[0] ?? 0n);
  return next > price ? next : price;
}

/** Gas units of the payout as the sender will send it, estimated from the hot wallet. */
async function payoutGas(chain: EvmFeeChain, n: QuoteNetwork, to: Address | null, units: bigint | null): Promise<bigint> {
  if (n.native) {
    if (to === null) return NATIVE_TRANSFER_GAS;
    // value 0: the hot wallet may not hold the amount yet; the gas does not depend on it.
    return chain.client.estimateGas({ account: chain.hot, to, value: 0n }).catch(() => NATIVE_TRANSFER_GAS);
  }
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to ?? ESTIMATE_RECIPIENT, units ?? 1n] });
  return chain.client
    .estimateGas({ account: chain.hot, to: getAddress(n.contract as string), data })
    .catch(() => TOKEN_TRANSFER_GAS_FALLBACK);
}

/** The network's fee settings, with the chain's own coin (a token's gas is paid in it). 3003 when it cannot pay out. */
async function quoteNetwork(database: Database, networkId: number): Promise<QuoteNetwork & { native_currency_id: number }> {
  const [n] = await database.sql.query<QuoteNetwork>(
    `select n.native, n.contract, n.token_decimals, c.decimals as currency_decimals, nat.currency_id as native_currency_id,
            nat.token_decimals as native_decimals, n.fee_margin_percent,
            coalesce(n.gas_price_cap_wei, n.fee_rate_cap)::text as gas_price_cap_wei
       from networks n join currencies c on c.id = n.currency_id
       left join networks nat on nat.chain_id = n.chain_id and nat.native
      where n.id = $1`,
    [networkId],
  );
  if (!n || (!n.native && n.contract === null) || n.native_currency_id === null)
    throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'networkId');
  return { ...n, native_currency_id: n.native_currency_id };
}

/** Token units per unit of the chain's coin at the house's swap rate; null for the coin itself. */
async function coinPrice(rates: RateSource, currencyId: number, n: QuoteNetwork & { native_currency_id: number }) {
  if (n.native) return null;
  const pair = await rates.getPair(currencyId, n.native_currency_id);
  if (!pair) throw unavailable('no swap rate to price the network fee in this currency', '暂无兑换汇率，无法计算该币种的网络手续费');
  return tokensPerCoin(rateAfterSpread(pair.midRate, pair.spreadBps));
}

/**
 * The payout's gas and the chain's gas price now; on a UTXO chain the vbytes of one payout and
 * the fee rate. 3003 when the node does not answer.
 */
async function gasNow(chain: FeeChain, n: QuoteNetwork & { id: number }, to: Address | null, units: bigint | null) {
  if ('feeRate' in chain) {
    const chainPrice = await chain.feeRate(n.id).catch(() => {
      throw NODE_DOWN();
    });
    return { gasLimit: UTXO_PAYOUT_VBYTES, chainPrice };
  }
  try {
    const [gasLimit, chainPrice] = await Promise.all([payoutGas(chain, n, to, units), chainGasPrice(chain.client)]);
    return { gasLimit, chainPrice };
  } catch {
    throw NODE_DOWN();
  }
}

/**
 * Quotes the fee of a withdrawal on a network from the chain and stores the quote, bound to the
 * user and the network, for WITHDRAW_FEE_QUOTE_TTL_SECONDS; coffer_withdraw_apply charges
 * exactly its fee (docs/decisions/040). Without a chain node: 3003, the network is unavailable.
 */
export async function quoteWithdrawFee(
  database: Database,
  chainFor: (chainId: number) => FeeChain | null,
  rules: AddressRules,
  rates: RateSource,
  userId: number,
  body: WithdrawQuoteBody,
): Promise<WithdrawQuoteData> {
  const net = await networkFor(database, body.networkId, body.currencyId);
  if (!net.withdrawEnabled) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'networkId');
  const chain = chainFor(net.chainId);
  if (!chain || chain.chainId !== net.chainId) throw NODE_DOWN();
  const n = await quoteNetwork(database, net.id);
  const decimals = Math.min(n.currency_decimals, n.token_decimals);
  const amount = body.amount === undefined ? null : parseAmount(body.amount, { decimals }, { limits: false });
  const to = body.address === undefined ? null : ((await payableDestination(database, rules, net, body.address)) as Address);
  const perCoin = await coinPrice(rates, net.currencyId, n);
  const { gasLimit, chainPrice } = await gasNow(
    chain,
    { ...n, id: net.id },
    to,
    amount === null ? null : parseUnits(amount, n.token_decimals),
  );
  const cap = n.gas_price_cap_wei === null ? null : BigInt(n.gas_price_cap_wei);
  const feesHigh = cap !== null && chainPrice > cap;
  // Above the cap the payout waits and then pays at most the cap: that is what the fee covers.
  const priced = feesHigh && cap !== null ? cap : chainPrice;
  const fee = priceFee({
    gasLimit,
    gasPriceWei: priced,
    marginPercent: n.fee_margin_percent,
    nativeDecimals: n.native_decimals ?? 18,
    tokensPerCoin: perCoin,
    currency: { code: net.code, decimals },
    minFee: net.withdrawFee,
  });
  const [row] = await database.sql.query<{ id: number; expires_at: Date | string }>(
    `insert into withdrawal_fee_quotes (user_id, network_id, fee, gas_limit, chain_gas_price_wei, gas_price_wei, margin_percent,
                                        rate, fees_high, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10)) returning id, expires_at`,
    [
      userId,
      net.id,
      fee,
      gasLimit.toString(),
      chainPrice.toString(),
      priced.toString(),
      n.fee_margin_percent,
      perCoin,
      feesHigh,
      WITHDRAW_FEE_QUOTE_TTL_SECONDS,
    ],
  );
  return {
    quoteId: Number(row!.id),
    networkId: net.id,
    currencyId: net.currencyId,
    fee: formatAmount(fee),
    minFee: net.withdrawFee,
    gasLimit: gasLimit.toString(),
    gasPriceWei: priced.toString(),
    feesHigh,
    expiresAt: new Date(row!.expires_at).toISOString(),
  };
}
