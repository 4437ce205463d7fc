import { checkAmount, ErrorCode } from '@coffer/contract';
import { BizError } from '../core/errors.ts';

export interface AmountRules {
  code?: string;
  decimals: number;
  transferMin?: string | null;
  transferMax?: string | null;
}

/**
 * Parses a decimal amount for a currency without floats. Returns the canonical string
 * (shortest exact form) to hand to SQL as numeric. Wrong shape answers 1001; zero, more
 * decimals than the currency has (refused, never rounded), below the minimum, above the
 * maximum or beyond NUMERIC(38,18) answer 3002.
 */
export function parseAmount(raw: string, rules: AmountRules, opts: { limits?: boolean } = {}): string {
  const limits = opts.limits ?? true;
  const res = checkAmount(raw, {
    decimals: rules.decimals,
    transferMin: limits ? rules.transferMin : null,
    transferMax: limits ? rules.transferMax : null,
  });
  if (res.ok) return res.value;
  if (res.problem === 'shape') throw new BizError(ErrorCode.INVALID_PARAMS, 'amount');
  throw new BizError(ErrorCode.AMOUNT_OUT_OF_RANGE);
}

/** Shortest exact form of a stored NUMERIC, never with more decimals than the currency. */
export { trimDecimal as formatAmount } from '@coffer/contract';
