import { z } from 'zod';
import { email } from './auth.ts';
import { amountShape, id, isoTime, pageRequest, pageResponse, queryId, safeText } from './common.ts';
import { canonicalAmount } from './rules.ts';
import { stepUpProof } from './step-up.ts';

export { type AmountProblem, checkAmount } from './rules.ts';

/**
 * Currencies, balances, transfers and the operator's ledger tools.
 * Amounts travel as decimal strings; the server answers with the shortest exact form
 * ("12.5", "0"), never more decimals than the currency has.
 */

export const MEMO_MAX = 100;
export const ADJUST_REASON_MAX = 500;

/**
 * The shape of an amount in a money-moving request (common amountShape). Wrong shapes
 * (numbers, signs, exponents, words) are 1001; the value itself (zero, too many decimals for
 * the currency, above the maximum) is judged against the currency by checkAmount and answers 3002.
 */
export const amountInput = amountShape;

export const currency = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  icon: z.string(),
  sort: z.number().int(),
  enabled: z.boolean(),
  /** Smallest and largest single transfer; null: no bound beyond the amount rules. */
  transferMin: z.string().nullable(),
  transferMax: z.string().nullable(),
  /** Decimals shown in lists and summaries (amount-rules DISPLAY_DECIMALS); details show every decimal. */
  displayDecimals: z.number().int(),
});
export type Currency = z.infer<typeof currency>;

export const currencyList = z.array(currency);

export const balance = z.object({
  currencyId: z.number().int(),
  code: z.string(),
  decimals: z.number().int(),
  available: z.string(),
  frozen: z.string(),
  total: z.string(),
});
export type Balance = z.infer<typeof balance>;
export const balanceList = z.array(balance);

/** One line of plain text (see safeText): no control, invisible or bidirectional characters. */
export const memo = safeText({ max: MEMO_MAX });

export const transferByEmailBody = z.object({ email, currencyId: id, amount: amountInput, memo: memo.optional(), ...stepUpProof });
export type TransferByEmailBody = z.infer<typeof transferByEmailBody>;

export const transferByUidBody = z.object({ uid: id, currencyId: id, amount: amountInput, memo: memo.optional(), ...stepUpProof });
export type TransferByUidBody = z.infer<typeof transferByUidBody>;

export const transferDirection = z.enum(['in', 'out']);
export type TransferDirection = z.infer<typeof transferDirection>;

/** The other side of a transfer as the viewer may see it (e-mail masked like a***e@x.com). */
export const counterparty = z.object({
  uid: z.number().int(),
  maskedEmail: z.string(),
  nickname: z.string(),
});

export const transferRecord = z.object({
  id: z.number().int(),
  /** The transaction's reference (its journal entry), as the statement and CSV show it (decision 053). */
  reference: z.number().int(),
  /** out: the viewer sent it; in: the viewer received it. */
  direction: transferDirection,
  currencyId: z.number().int(),
  code: z.string(),
  amount: z.string(),
  memo: z.string().nullable(),
  counterparty,
  /** Transfers inside Coffer settle at once. */
  status: z.literal('success'),
  createdAt: isoTime,
});
export type TransferRecord = z.infer<typeof transferRecord>;

/** The answer to a transfer POST; a replay (same Idempotency-Key and body) says so. */
export const transferResult = transferRecord.extend({ replayed: z.boolean() });
export type TransferResult = z.infer<typeof transferResult>;

export const transferPageBody = pageRequest.extend({
  currencyId: id.optional(),
  direction: transferDirection.optional(),
});
export type TransferPageBody = z.infer<typeof transferPageBody>;
export const transferPage = pageResponse(transferRecord);

/** Recipient preview before sending: exactly one of email or uid. */
export const recipientQuery = z
  .object({ email: email.optional(), uid: queryId.optional() })
  .refine((v) => (v.email === undefined) !== (v.uid === undefined), 'give exactly one of email or uid');
export type RecipientQuery = z.infer<typeof recipientQuery>;

export const recipient = z.object({
  uid: z.number().int(),
  maskedEmail: z.string(),
  nickname: z.string(),
  avatar: z.string().nullable(),
});
export type Recipient = z.infer<typeof recipient>;

/** How many people GET /api/transfer/recentRecipients answers at most. */
export const RECENT_RECIPIENTS_MAX = 5;

/** Someone the signed-in user sent money to, as a recipient preview shows them, and when last. */
export const recentRecipient = recipient.extend({ lastSentAt: z.string().describe('ISO 8601 time of the latest transfer to them') });
export type RecentRecipient = z.infer<typeof recentRecipient>;

/** GET /api/transfer/recentRecipients: the user's own past recipients, most recent first. */
export const recentRecipients = z.array(recentRecipient).max(RECENT_RECIPIENTS_MAX);
export type RecentRecipients = z.infer<typeof recentRecipients>;

/** Operator credit or debit of a user's available balance against the adjustments account. */
export const adjustBody = z
  .object({
    email: email.optional(),
    uid: id.optional(),
    /** Currency id or code (e.g. "USDT"). */
    currency: z.union([id, safeText({ min: 1, max: 16 })]),
    amount: amountInput,
    direction: z.enum(['credit', 'debit']).default('credit'),
    /** An operator's note: may span lines. */
    reason: safeText({ min: 1, max: ADJUST_REASON_MAX, multiline: true }),
  })
  .refine((v) => (v.email === undefined) !== (v.uid === undefined), 'give exactly one of email or uid');
export type AdjustBody = z.input<typeof adjustBody>;

export const adjustResult = z.object({
  adjustmentId: z.number().int(),
  entryId: z.number().int(),
  uid: z.number().int(),
  currencyId: z.number().int(),
  code: z.string(),
  /** Signed: negative for a debit. */
  amount: z.string(),
  /** The user's available balance right after this adjustment. */
  balanceAfter: z.string(),
  replayed: z.boolean(),
});
export type AdjustResult = z.infer<typeof adjustResult>;

/**
 * An adjustment above the currency's four-eyes threshold (ADJUST_APPROVAL_ABOVE) waits for a
 * second, different operator: the request, its decision and the resulting entry.
 */
export const adjustRequest = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  email: z.string(),
  currencyId: z.number().int(),
  code: z.string(),
  /** Signed: negative for a debit. */
  amount: z.string(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: isoTime,
  status: z.enum(['pending', 'approved', 'rejected']),
  decidedBy: z.string().nullable(),
  decidedAt: isoTime.nullable(),
  decisionReason: z.string().nullable(),
  /** The journal entry once approved. */
  entryId: z.number().int().nullable(),
});
export type AdjustRequest = z.infer<typeof adjustRequest>;
export const adjustRequestList = z.array(adjustRequest);

/** POST /api/admin/ledger/adjust answers the applied adjustment, or the request waiting for a second operator. */
export const adjustOutcome = z.discriminatedUnion('status', [
  adjustResult.extend({ status: z.literal('applied') }),
  z.object({ status: z.literal('pending'), request: adjustRequest }),
]);
export type AdjustOutcome = z.infer<typeof adjustOutcome>;

/** Approve or reject a waiting adjustment, with the deciding operator's reason. */
export const adjustDecisionBody = z.object({ reason: safeText({ min: 1, max: ADJUST_REASON_MAX, multiline: true }) });
export type AdjustDecisionBody = z.infer<typeof adjustDecisionBody>;
export const adjustRequestQuery = z.object({ status: z.enum(['pending', 'approved', 'rejected']).default('pending') });

export const auditCheck = z.object({
  name: z.string(),
  ok: z.boolean(),
  violations: z.number().int(),
  sample: z.array(z.record(z.string(), z.unknown())),
});
export const auditReport = z.object({
  ok: z.boolean(),
  checkedAt: isoTime,
  checks: z.array(auditCheck),
});
export type AuditReport = z.infer<typeof auditReport>;

/**
 * The shortest exact form of a stored NUMERIC ("10.500000000000000000" -> "10.5",
 * "-0.000000" -> "0"). Stored values never carry more decimals than their currency.
 */
export function trimDecimal(value: string): string {
  return canonicalAmount(value) ?? value;
}

/** alice@example.com -> a***e@example.com; short local parts keep only the first letter. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  const local = address.slice(0, at);
  const domain = address.slice(at);
  if (local.length <= 2) return `${local[0]}***${domain}`;
  return `${local[0]}***${local[local.length - 1]}${domain}`;
}
