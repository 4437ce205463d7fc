import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/**
 * Limits mirrored from the contract (OPERATOR_REASON_MAX in admin.ts): imported as values,
 * the contract modules would bring zod into the bundle; the server checks them anyway.
 */
export const REASON_MAX = 500;

/** A positive decimal string ("12.5"); the server checks the currency's decimals. */
const AMOUNT_PATTERN = /^(0|[1-9]\d*)(\.\d+)?$/;

export const requiredRule = (t: TFunction): Rule => ({ required: true, whitespace: true, message: t('validation.required') });
export const amountRule = (t: TFunction): Rule => ({ pattern: AMOUNT_PATTERN, message: t('validation.amount') });
export const reasonRules = (t: TFunction): Rule[] => [requiredRule(t), { max: REASON_MAX, message: t('validation.tooLong', { max: REASON_MAX }) }];

/** An optional amount field: empty means "none" (null). */
export const optionalAmount = (value: string | undefined | null): string | null => (value?.trim() ? value.trim() : null);
