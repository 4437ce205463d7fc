import { z } from 'zod';
import { decimalString, id, isoTime, pageRequest, pageResponse, queryId } from './common.ts';
import { counterparty } from './ledger.ts';
import type { TURNOVER_TYPES } from './rules.ts';

/** Statement line types (rules.ts says what each is). */
export { TURNOVER_TYPES } from './rules.ts';
export const turnoverType = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/);
export type TurnoverType = (typeof TURNOVER_TYPES)[number] | (string & {});

export const turnoverFilters = z.object({
  currencyId: id.optional(),
  type: turnoverType.optional(),
  /** Inclusive lower and exclusive upper bound on the posting time (ISO 8601). */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** A transaction's reference (its journal entry): its lines only (docs/decisions/053). */
  reference: id.optional(),
});
export type TurnoverFilters = z.infer<typeof turnoverFilters>;

export const turnoverBody = pageRequest.extend(turnoverFilters.shape);
export type TurnoverBody = z.infer<typeof turnoverBody>;

export const turnoverItem = z.object({
  /** The posting id. */
  id: z.number().int(),
  entryId: z.number().int(),
  type: z.string(),
  currencyId: z.number().int(),
  currency: z.string(),
  /** 'available' or 'frozen'. */
  accountKind: z.string(),
  /** Signed: credit > 0, debit < 0. */
  amount: decimalString,
  balanceAfter: decimalString,
  /** A transfer's other side (uid, masked e-mail, nickname); null for other kinds. */
  counterparty: counterparty.nullable(),
  /**
   * The transaction's reference: its journal entry, the same number on the record, every line
   * of it (both parties of a transfer) and the CSV (docs/decisions/053-one-amount-one-reference.md).
   */
  reference: z.number().int(),
  /** A short human summary, e.g. "USDT→ETH" for a swap. */
  summary: z.string().nullable(),
  /** A transfer's memo; null for other kinds. */
  memo: z.string().nullable(),
  /** For swap lines: the rate (`to` per `from`) and the fee charged. */
  rate: decimalString.nullable(),
  fee: decimalString.nullable(),
  feeCurrency: z.string().nullable(),
  createdAt: isoTime,
});
export type TurnoverItem = z.infer<typeof turnoverItem>;

export const turnoverPage = pageResponse(turnoverItem);
export type TurnoverPage = z.infer<typeof turnoverPage>;

export const turnoverEntryPosting = z.object({
  id: z.number().int(),
  currencyId: z.number().int(),
  currency: z.string(),
  accountKind: z.string(),
  amount: decimalString,
  balanceAfter: decimalString,
});

export const turnoverSwap = z.object({
  id: z.number().int(),
  fromCurrencyId: z.number().int(),
  fromCurrency: z.string(),
  toCurrencyId: z.number().int(),
  toCurrency: z.string(),
  fromAmount: decimalString,
  toAmount: decimalString,
  rate: decimalString,
  fee: decimalString,
  feeCurrencyId: z.number().int(),
  feeCurrency: z.string(),
});

export const turnoverDetail = turnoverItem.extend({
  entry: z.object({
    id: z.number().int(),
    kind: z.string(),
    memo: z.string().nullable(),
    createdAt: isoTime,
    /** The entry's postings on this user's own accounts (other parties are not shown). */
    postings: z.array(turnoverEntryPosting),
  }),
  swap: turnoverSwap.nullable(),
});
export type TurnoverDetail = z.infer<typeof turnoverDetail>;

/** Query of GET /api/turnover/export.csv: the same filters, the id as URL text. */
export const turnoverExportQuery = turnoverFilters.extend({ currencyId: queryId.optional(), reference: queryId.optional() });
export type TurnoverExportQuery = z.infer<typeof turnoverExportQuery>;
