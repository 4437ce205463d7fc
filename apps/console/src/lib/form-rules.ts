import { AMOUNT_MAX_DECIMALS, AMOUNT_MAX_INTEGER_DIGITS, AMOUNT_RE, OPERATOR_REASON_MAX } from '@coffer/contract/rules';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/* Limits come from the contract's zod-free rules entry, so the console bundles no schemas. */

/** Longest operator reason (contract OPERATOR_REASON_MAX). */
export const REASON_MAX = OPERATOR_REASON_MAX;

/** Longest amount text worth typing: every digit NUMERIC(38,18) holds and the point. */
export const AMOUNT_INPUT_MAX = AMOUNT_MAX_INTEGER_DIGITS + 1 + AMOUNT_MAX_DECIMALS;

export const requiredRule = (t: TFunction): Rule => ({ required: true, whitespace: true, message: t('validation.required') });
/** The contract's amount grammar ("12.5"); zero, the currency's decimals and limits are the server's to judge. */
export const amountRule = (t: TFunction): Rule => ({ pattern: AMOUNT_RE, message: t('validation.amount') });
export const reasonRules = (t: TFunction): Rule[] => [
  requiredRule(t),
  { max: REASON_MAX, message: t('validation.tooLong', { max: REASON_MAX }) },
];

/** An optional amount field: empty means "none" (null). */
export const optionalAmount = (value: string | undefined | null): string | null => (value?.trim() ? value.trim() : null);
