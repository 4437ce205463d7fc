import { formatDecimal } from '@coffer/contract/amount-rules';
import { EXPLORER_ADDRESS_PLACEHOLDER, EXPLORER_TX_PLACEHOLDER } from '@coffer/contract/explorer';
import type { AdminNetwork, NetworkSettingKey, NetworkSettings } from '@coffer/contract/network-admin';

/** How a setting is edited and shown: an amount of the network's currency, a count, a switch, text, a link template. */
export type SettingKind = 'amount' | 'integer' | 'boolean' | 'address' | 'wei' | 'rate' | 'url';

/**
 * Every setting in the order the form shows it; `optional`: empty means none (null);
 * `placeholder`: what a link template must contain.
 */
export const SETTINGS: readonly { key: NetworkSettingKey; kind: SettingKind; optional?: boolean; placeholder?: string }[] = [
  { key: 'depositEnabled', kind: 'boolean' },
  { key: 'withdrawEnabled', kind: 'boolean' },
  { key: 'confirmations', kind: 'integer' },
  { key: 'minDeposit', kind: 'amount' },
  { key: 'withdrawFee', kind: 'amount' },
  { key: 'minWithdraw', kind: 'amount' },
  { key: 'maxWithdraw', kind: 'amount' },
  { key: 'dailyWithdrawLimit', kind: 'amount' },
  { key: 'reviewThreshold', kind: 'amount', optional: true },
  { key: 'secondApprovalAbove', kind: 'amount', optional: true },
  { key: 'contract', kind: 'address', optional: true },
  { key: 'tokenDecimals', kind: 'integer' },
  { key: 'gasPriceCapWei', kind: 'wei', optional: true },
  { key: 'feeRateFloor', kind: 'rate', optional: true },
  { key: 'feeRateCap', kind: 'rate', optional: true },
  { key: 'maxFeeBumps', kind: 'integer' },
  { key: 'feeMarginPercent', kind: 'integer' },
  { key: 'hotCeiling', kind: 'amount', optional: true },
  { key: 'hotFloor', kind: 'amount', optional: true },
  { key: 'coldAddress', kind: 'address', optional: true },
  { key: 'explorerUrl', kind: 'url', optional: true, placeholder: EXPLORER_ADDRESS_PLACEHOLDER },
  { key: 'explorerTxUrl', kind: 'url', optional: true, placeholder: EXPLORER_TX_PLACEHOLDER },
];

/** Settings of the EVM family only: a UTXO chain has no gas, no token contracts, and its coin's decimals are fixed. */
const EVM_ONLY: readonly NetworkSettingKey[] = ['contract', 'tokenDecimals', 'gasPriceCapWei'];

/** Settings of the UTXO family only: the payouts' fee rate floor and cap (base units per vbyte). */
const UTXO_ONLY: readonly NetworkSettingKey[] = ['feeRateFloor', 'feeRateCap'];

/** The settings a network's form offers: a native coin has no contract to set, each family only its own fee settings. */
export function settingsOf(n: AdminNetwork): typeof SETTINGS {
  const other = n.family === 'utxo' ? EVM_ONLY : UTXO_ONLY;
  return SETTINGS.filter((s) => !(n.native && s.key === 'contract') && !other.includes(s.key));
}

/** A link template as the form accepts it: an http(s) address with its placeholder in it. */
export function templatePattern(placeholder: string): RegExp {
  return new RegExp(`^\\s*https?://\\S*${placeholder.replace(/[{}]/g, '\\$&')}\\S*\\s*$`);
}

/** What the form holds: text for amounts, addresses and wei (empty = none), numbers, switches. */
export type SettingsForm = Partial<Record<NetworkSettingKey, string | number | boolean | null>>;

export function formValues(n: AdminNetwork): SettingsForm {
  return Object.fromEntries(SETTINGS.map(({ key }) => [key, n[key] ?? ''])) as SettingsForm;
}

/** A form value as the API takes it: trimmed text, empty optional text as null. */
function apiValue(kind: SettingKind, value: unknown): unknown {
  if (kind === 'boolean' || kind === 'integer') return value;
  const text = String(value ?? '').trim();
  return text === '' ? null : text;
}

/** Same value? Amounts compare as numbers written differently ("1.50" is "1.5"). */
function same(kind: SettingKind, a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  if (kind === 'amount') return formatDecimal(String(a)) === formatDecimal(String(b));
  if (kind === 'address') return String(a).toLowerCase() === String(b).toLowerCase();
  return a === b;
}

/** One change as the confirm step repeats it. */
export interface SettingChange {
  key: NetworkSettingKey;
  kind: SettingKind;
  before: unknown;
  after: unknown;
}

/** The settings the form changes, in form order (only these are sent). */
export function changesOf(n: AdminNetwork, form: SettingsForm): SettingChange[] {
  const out: SettingChange[] = [];
  for (const { key, kind } of SETTINGS) {
    const after = apiValue(kind, form[key]);
    if (!same(kind, n[key], after)) out.push({ key, kind, before: n[key], after });
  }
  return out;
}

export const changesBody = (changes: SettingChange[]): NetworkSettings =>
  Object.fromEntries(changes.map((c) => [c.key, c.after])) as NetworkSettings;

/**
 * A setting as the console shows it. Settings are details, so amounts are exact (never
 * rounded to a display precision, docs/decisions/019), grouped in threes, with the currency.
 */
export function showSetting(kind: SettingKind, value: unknown, code: string, words: { none: string; on: string; off: string }): string {
  if (value === null || value === undefined || value === '') return words.none;
  if (kind === 'boolean') return value ? words.on : words.off;
  if (kind === 'amount') return `${formatDecimal(String(value)) ?? String(value)} ${code}`;
  if (kind === 'wei') return `${formatDecimal(String(value)) ?? String(value)} wei`;
  if (kind === 'rate') return `${String(value)} / vB`;
  return String(value);
}
