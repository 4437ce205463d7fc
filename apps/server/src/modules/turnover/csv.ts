import type { Locale, TURNOVER_TYPES, TurnoverItem } from '@coffer/contract';

/** A UTF-8 byte order mark: spreadsheet apps then read Chinese text correctly. */
export const UTF8_BOM = '\uFEFF';

const HEADERS: Record<Locale, string[]> = {
  // The first column is the transaction's reference, as the app shows it (docs/decisions/053).
  'zh-CN': ['交易编号', '时间(UTC)', '类型', '币种', '金额', '变动后余额', '对方', '摘要', '汇率', '手续费', '手续费币种', '备注'],
  'en-US': [
    'Reference',
    'Time (UTC)',
    'Type',
    'Currency',
    'Amount',
    'Balance after',
    'Counterparty',
    'Summary',
    'Rate',
    'Fee',
    'Fee currency',
    'Memo',
  ],
};

/**
 * Statement line types in the words the phone app uses for the same lines (web
 * locales statement.types.*; csv.test.ts holds them equal), so a spreadsheet and the
 * screen never name one thing two ways. Kinds the ledger adds later show their name.
 */
export const TYPE_LABELS: Record<Locale, Record<(typeof TURNOVER_TYPES)[number], string>> = {
  'zh-CN': {
    transfer_in: '转入',
    transfer_out: '转出',
    swap: '兑换',
    adjustment: '调整',
    deposit: '充值',
    withdraw_hold: '提现（冻结）',
    withdraw_settle: '提现（已出账）',
    withdraw_refund: '提现退回',
  },
  'en-US': {
    transfer_in: 'Transfer in',
    transfer_out: 'Transfer out',
    swap: 'Swap',
    adjustment: 'Adjustment',
    deposit: 'Deposit',
    withdraw_hold: 'Withdrawal (held)',
    withdraw_settle: 'Withdrawal (sent)',
    withdraw_refund: 'Withdrawal refund',
  },
};

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes
 * doubled. Free text that a spreadsheet would run as a formula (=, +, -, @, tab, CR
 * first) gets a leading apostrophe; numbers are written as they are.
 */
export function csvField(value: string | number | null, { text = false } = {}): string {
  if (value === null) return '';
  let s = String(value);
  if (text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function typeLabel(type: string, locale: Locale): string {
  const labels: Record<string, string> = TYPE_LABELS[locale];
  return labels[type] ?? type;
}

export function csvHeader(locale: Locale): string {
  return `${HEADERS[locale].map((h) => csvField(h)).join(',')}\r\n`;
}

export function csvLine(item: TurnoverItem, locale: Locale): string {
  const counterparty = item.counterparty ? `${item.counterparty.maskedEmail} (UID ${item.counterparty.uid})` : null;
  return `${[
    csvField(item.reference),
    csvField(item.createdAt),
    csvField(typeLabel(item.type, locale), { text: true }),
    csvField(item.currency, { text: true }),
    csvField(item.amount),
    csvField(item.balanceAfter),
    csvField(counterparty, { text: true }),
    csvField(item.summary, { text: true }),
    csvField(item.rate),
    csvField(item.fee),
    csvField(item.feeCurrency, { text: true }),
    csvField(item.memo, { text: true }),
  ].join(',')}\r\n`;
}
