/**
 * The rules the server and both apps share, with no dependency (no zod): a screen that only
 * needs a limit or the amount grammar imports `@coffer/contract/rules` for a few hundred bytes
 * instead of the contract's schemas. The zod schemas (common.ts, ledger.ts, swap.ts, ...) are
 * built on these; each rule is written here once and nowhere else.
 */
export * from './address-shape.ts';
export * from './amount-rules.ts';

/** Interface and message languages: zh-CN is the product default, en-US the fallback. */
export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const FALLBACK_LOCALE: Locale = 'en-US';

/** How long a swap quote holds, in seconds; the server refuses it after that (3006). */
export const SWAP_QUOTE_TTL_SECONDS = 15;
/**
 * How long a withdrawal fee quote holds, in seconds (docs/decisions/040): long enough to
 * fetch and type an e-mail code, short enough that the chain's fees have not moved far. The
 * server refuses it after that (3019) and the app asks for a new one.
 */
export const WITHDRAW_FEE_QUOTE_TTL_SECONDS = 120;

/** Digits of an e-mailed code (sign-up, password reset, withdrawal). */
export const EMAIL_CODE_LENGTH = 6;
/** Seconds before another code may be mailed to the same address for the same purpose. */
export const EMAIL_CODE_RESEND_SECONDS = 60;

/** Longest help-centre search text, in UTF-16 units after trimming. */
export const HELP_QUERY_MAX = 50;

/** Default and largest page of a paged list. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/**
 * Characters refused in every free-text field: C0 controls except where `multiline` allows
 * line breaks, DEL and C1 controls; bidirectional embeddings, overrides, isolates and marks
 * (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C); zero-width characters (U+200B–U+200D,
 * U+2060, U+FEFF); line and paragraph separators (U+2028, U+2029); invisible tag characters
 * (U+E0000–U+E007F, as a surrogate pair). A NUL cannot be stored in PostgreSQL text at all; the
 * rest make text display otherwise than it is stored (reordered, hidden or spoofed names).
 * Note that U+200D (zero-width joiner) also joins emoji sequences; those are refused too.
 */
export const FORBIDDEN_SINGLE_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff]|\udb40[\udc00-\udc7f]/;
export const FORBIDDEN_MULTILINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff]|\udb40[\udc00-\udc7f]/;
/** A surrogate half without its partner: not text (it would be stored as U+FFFD). */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `text` has none of the characters every text field refuses (see FORBIDDEN_SINGLE_LINE). */
export function isSafeText(text: string, multiline = false): boolean {
  return !(multiline ? FORBIDDEN_MULTILINE : FORBIDDEN_SINGLE_LINE).test(text) && !LONE_SURROGATE.test(text);
}

/* Limits of operator and content forms, which the console checks before sending (the server checks them too). */

/** Longest title (banner, notice, help article or topic), after trimming. */
export const CONTENT_TITLE_MAX = 100;
/** Longest Markdown body, in UTF-16 units. */
export const CONTENT_BODY_MAX = 20_000;
/** Longest in-app path a banner may link to. */
export const ROUTE_PATH_MAX = 200;
/** Highest sort order; lower comes first. */
export const SORT_ORDER_MAX = 1_000_000;
/** Longest reason an operator may give for a retire or delete. */
export const CONTENT_REASON_MAX = 500;
/** Highest rank a prize table may reach. */
export const ACTIVITY_MAX_PRIZE_RANK = 1000;
/** Longest activity title and rules text, in each language. */
export const ACTIVITY_TITLE_MAX = 80;
export const ACTIVITY_RULES_MAX = 10_000;
/** Longest operator reason, as the audit trail keeps it (operator_actions.reason). */
export const OPERATOR_REASON_MAX = 500;
/** Longest image URL (an https address or /uploads/<name>). */
export const IMAGE_URL_MAX = 500;
/** Largest uploaded image: 1 MiB. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;
/** Basis points a spread or fee may take (swap_pairs_bps_check). */
export const SWAP_BPS_MAX = 5000;

/** What an operator may do (decision 045): each admin route names the one it needs. */
export const OPERATOR_ROLES = ['support', 'finance', 'admin'] as const;

/*
 * Rules a signed-in page's first screen needs without the contract's schemas (decision 069):
 * the schemas that check the same (two-factor.ts, chain.ts, turnover.ts, auth.ts) are built on
 * these, so the phone app's shell can leave zod to the forms that parse with it.
 */

/** Recovery codes look like `k7m2p-x9q4r` (10 characters of a 31-letter alphabet, dash optional). */
export const RECOVERY_CODE_RE = /^[a-z2-9]{5}-?[a-z2-9]{5}$/;

/** Where a second factor is asked: an authenticator code (6 digits) or a recovery code, case and spaces around aside. */
export function isSecondFactorCode(value: string): boolean {
  const code = value.trim().toLowerCase();
  return /^\d{6}$/.test(code) || RECOVERY_CODE_RE.test(code);
}

/** Longest nickname, after trimming. */
export const NICKNAME_MAX = 32;

/** One line of text, trimmed, of `min` to `max` UTF-16 units, without the characters every field refuses. */
export function isSafeLine(value: string, { min, max }: { min: number; max: number }): boolean {
  const line = value.trim();
  return line.length >= min && line.length <= max && isSafeText(line);
}

/** A withdrawal's states, in the order it moves through them. */
export const WITHDRAW_STATUSES = ['review', 'queued', 'broadcast', 'confirming', 'completed', 'failed', 'cancelled', 'rejected'] as const;
type WithdrawState = (typeof WITHDRAW_STATUSES)[number];
/** Final states: the money has settled (completed) or gone back to available. */
export const WITHDRAW_FINAL: readonly WithdrawState[] = ['completed', 'failed', 'cancelled', 'rejected'];
/** The user may cancel until the sender has signed and broadcast. */
export const WITHDRAW_CANCELLABLE: readonly WithdrawState[] = ['review', 'queued'];

/**
 * Statement line types: the entry kind, with transfers split by direction. A withdrawal
 * shows as withdraw_hold (available -> frozen on apply), then withdraw_settle (frozen paid
 * out, fee included) or withdraw_refund (frozen back to available). Kinds added by the
 * ledger later come through as their kind name.
 */
export const TURNOVER_TYPES = [
  'transfer_in',
  'transfer_out',
  'swap',
  'adjustment',
  'deposit',
  'withdraw_hold',
  'withdraw_settle',
  'withdraw_refund',
] as const;
