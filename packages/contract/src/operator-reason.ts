import { safeText } from './common.ts';
import { OPERATOR_REASON_MAX } from './rules.ts';

/** Every operator write says why: one to 500 characters, lines allowed. */
export const operatorReason = safeText({ min: 1, max: OPERATOR_REASON_MAX, multiline: true });
