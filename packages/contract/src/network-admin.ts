import { z } from 'zod';
import { amountOrZero, decimalString } from './common.ts';
import { operatorReason } from './admin.ts';
import { chainFamily, EXPLORER_ADDRESS_PLACEHOLDER, EXPLORER_TX_PLACEHOLDER } from './chain.ts';

/**
 * Network settings as operator data (docs/decisions/041-network-settings.md):
 * GET /api/admin/networks, POST /api/admin/networks/{id}. Amounts are decimal strings in the
 * currency's unit; the gas price cap is an integer of wei as a string (it passes 2^53).
 */

/** Chain ids of local development chains (anvil, ganache/hardhat): a gas price cap is optional there. */
export const LOCAL_CHAIN_IDS: readonly number[] = [31337, 1337];

const evmAddress = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address of 40 hex digits');
/** An explorer page template (no spaces or control characters) with its placeholder in it. */
const explorerTemplate = (placeholder: string) =>
  z
    .string()
    .trim()
    .max(300)
    .regex(/^https?:\/\/[^\s/?#\p{Cc}]+[^\s\p{Cc}]*$/u, 'must be an http(s) address')
    .refine((u) => u.includes(placeholder), `must contain ${placeholder}`);
/** An explorer's address page, e.g. https://etherscan.io/address/{address}. */
const explorerUrl = explorerTemplate(EXPLORER_ADDRESS_PLACEHOLDER);
/** An explorer's transaction page, e.g. https://etherscan.io/tx/{tx}. */
const explorerTxUrl = explorerTemplate(EXPLORER_TX_PLACEHOLDER);
const weiString = z
  .string()
  .trim()
  .regex(/^[1-9]\d{0,77}$/, 'must be a whole number of wei');

export const adminNetwork = z.object({
  id: z.number().int(),
  currencyId: z.number().int(),
  code: z.string(),
  name: z.string(),
  /** evm: gas settings and token contracts apply; utxo: a coin chain without either. */
  family: chainFamily,
  chainId: z.number().int(),
  /** The chain's own coin (no contract). */
  native: z.boolean(),
  /** A local development chain: a gas price cap is optional. */
  local: z.boolean(),
  /** This server is connected to the network's chain (a token contract can be checked). */
  served: z.boolean(),
  /** Decimals the amounts of this network are kept in (the lower of currency and token). */
  amountDecimals: z.number().int(),
  contract: z.string().nullable(),
  tokenDecimals: z.number().int(),
  confirmations: z.number().int(),
  minDeposit: decimalString,
  /** The minimum withdrawal fee. */
  withdrawFee: decimalString,
  minWithdraw: decimalString,
  maxWithdraw: decimalString,
  dailyWithdrawLimit: decimalString,
  reviewThreshold: decimalString.nullable(),
  depositEnabled: z.boolean(),
  withdrawEnabled: z.boolean(),
  gasPriceCapWei: z.string().nullable(),
  maxFeeBumps: z.number().int(),
  feeMarginPercent: z.number().int(),
  hotCeiling: decimalString.nullable(),
  hotFloor: decimalString.nullable(),
  coldAddress: z.string().nullable(),
  /** A withdrawal in review above this needs two different operators; null: one is enough. */
  secondApprovalAbove: decimalString.nullable(),
  /** The block explorer's page of an address, with {address} in it; null: none. */
  explorerUrl: z.string().nullable(),
  /** The block explorer's page of a transaction, with {tx} in it; null: none. */
  explorerTxUrl: z.string().nullable(),
  payoutsFrozen: z.boolean(),
});
export type AdminNetwork = z.infer<typeof adminNetwork>;
export const adminNetworkList = z.array(adminNetwork);

/**
 * The settings an operator may change; a key left out keeps its value, null clears an
 * optional one. Shapes are checked here (1001); ranges and how settings fit together are the
 * SQL function's rules (3027-3029), the same for the console and the command line.
 */
export const networkSettings = z
  .strictObject({
    contract: evmAddress.nullable(),
    tokenDecimals: z.number().int(),
    confirmations: z.number().int(),
    minDeposit: amountOrZero,
    withdrawFee: amountOrZero,
    minWithdraw: amountOrZero,
    maxWithdraw: amountOrZero,
    dailyWithdrawLimit: amountOrZero,
    reviewThreshold: amountOrZero.nullable(),
    depositEnabled: z.boolean(),
    withdrawEnabled: z.boolean(),
    gasPriceCapWei: weiString.nullable(),
    maxFeeBumps: z.number().int(),
    feeMarginPercent: z.number().int(),
    hotCeiling: amountOrZero.nullable(),
    hotFloor: amountOrZero.nullable(),
    coldAddress: evmAddress.nullable(),
    secondApprovalAbove: amountOrZero.nullable(),
    explorerUrl: explorerUrl.nullable(),
    explorerTxUrl: explorerTxUrl.nullable(),
  })
  .partial();
export type NetworkSettings = z.infer<typeof networkSettings>;
export type NetworkSettingKey = keyof NetworkSettings;
export const NETWORK_SETTING_KEYS = Object.keys(networkSettings.shape) as NetworkSettingKey[];

export const networkUpdateBody = z.object({
  changes: networkSettings.refine((c) => Object.keys(c).length > 0, 'name at least one setting'),
  reason: operatorReason,
});
export type NetworkUpdateBody = z.infer<typeof networkUpdateBody>;
/** `changed` false: the network was already so; nothing written, no audit row. */
export const networkUpdateData = adminNetwork.extend({ changed: z.boolean() });
export type NetworkUpdateData = z.infer<typeof networkUpdateData>;
