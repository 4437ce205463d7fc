import { displayDecimals } from '@coffer/contract/rules';
import { Decimal } from '../swap/index.ts';

/**
 * The arithmetic of a withdrawal fee quote (docs/decisions/040), exact and apart from the chain
 * so it is tested on its own: gas x price x (1 + margin), for a token times the token units
 * per unit of the chain's coin, rounded UP to the currency's display precision (toward the
 * house: the float pays the real gas), never below the network's minimum fee.
 */
export interface FeeInputs {
  gasLimit: bigint;
  /** The gas price the fee is priced at (wei), already capped. */
  gasPriceWei: bigint;
  marginPercent: number;
  /** Decimals of the chain's coin (18 for ETH): wei to coin. */
  nativeDecimals: number;
  /** null: the native coin itself; else token units per unit of the chain's coin. */
  tokensPerCoin: string | null;
  currency: { code: string; decimals: number };
  /** networks.withdraw_fee: the least a withdrawal pays. */
  minFee: string;
}

/** Wei the payout may cost, with the margin, rounded up to a whole wei. */
export function costWei(gasLimit: bigint, gasPriceWei: bigint, marginPercent: number): bigint {
  const raw = gasLimit * gasPriceWei * BigInt(100 + marginPercent);
  return (raw + 99n) / 100n;
}

/** The fee as a plain decimal string in the network's currency. */
export function priceFee(f: FeeInputs): string {
  const cost = costWei(f.gasLimit, f.gasPriceWei, f.marginPercent);
  let value = new Decimal(cost.toString()).div(new Decimal(10).pow(f.nativeDecimals));
  if (f.tokensPerCoin !== null) value = value.mul(f.tokensPerCoin);
  const places = displayDecimals(f.currency);
  const rounded = value.toDecimalPlaces(places, Decimal.ROUND_UP);
  return Decimal.max(rounded, new Decimal(f.minFee)).toFixed();
}

/**
 * Token units the house asks per unit of the chain's coin: the inverse of what one token buys
 * of the coin at the swap rate after spread, rounded up at 18 decimals.
 */
export function tokensPerCoin(coinPerToken: string): string {
  return new Decimal(1).div(coinPerToken).toDecimalPlaces(18, Decimal.ROUND_UP).toFixed();
}
