import { z } from 'zod';
import { id, idempotencyKey, isoTime, pageRequest, pageResponse, queryId, safeText } from './common.ts';

export { WITHDRAW_FEE_QUOTE_TTL_SECONDS } from './rules.ts';
import { amountInput, memo } from './ledger.ts';
import { WITHDRAW_STATUSES } from './rules.ts';
import { stepUpProof } from './step-up.ts';

/**
 * Money in and out on a chain (docs/product.md §9): networks, deposit addresses,
 * deposits, withdrawals, the public configs and the live event stream. Amounts are decimal
 * strings in the currency's unit ("12.5"), never base units and never JSON numbers.
 */

/** An EVM address as typed or pasted; the server checks the checksum (3008). */
export const ADDRESS_MAX = 128;
export const WITHDRAW_CODE_RE = /^\d{6}$/;

export const chainFamily = z.enum(['evm', 'utxo']);

// Explorer templates live in a module without schemas (the console imports them zod-free).
export { EXPLORER_ADDRESS_PLACEHOLDER, EXPLORER_TX_PLACEHOLDER, explorerLink, explorerTxLink, fillExplorerTemplate } from './explorer.ts';

/** One way a currency moves on a chain (native coin or token contract). */
export const network = z.object({
  id: z.number().int(),
  currencyId: z.number().int(),
  code: z.string(),
  /** Display name of the network, e.g. "Ethereum (local)". */
  name: z.string(),
  family: chainFamily,
  chainId: z.number().int(),
  /** null: the chain's native coin; else the token contract. */
  contract: z.string().nullable(),
  tokenDecimals: z.number().int(),
  confirmations: z.number().int(),
  /** Typical seconds per block: confirmations × this is about how long a transfer takes to confirm. */
  blockSeconds: z.number().int(),
  minDeposit: z.string(),
  withdrawFee: z.string(),
  minWithdraw: z.string(),
  maxWithdraw: z.string(),
  dailyWithdrawLimit: z.string(),
  depositEnabled: z.boolean(),
  withdrawEnabled: z.boolean(),
  /** Set while payouts on this network are frozen (incident or reconciliation drift). */
  payoutsFrozen: z.boolean(),
  /** The block explorer's page of an address, {address} in it; null: no explorer (local chains). */
  explorerUrl: z.string().nullable(),
  /** The block explorer's page of a transaction, {tx} in it; null: no explorer. */
  explorerTxUrl: z.string().nullable(),
});
export type Network = z.infer<typeof network>;
export const networkList = z.array(network);

export const configsData = z.object({
  productName: z.string(),
  supportEmail: z.string(),
  /** The local test faucet exists (embedded chain only). */
  faucet: z.boolean(),
  minAppVersion: z.string().nullable(),
  networks: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string(), confirmations: z.number().int() })),
});
export type ConfigsData = z.infer<typeof configsData>;

export const createAddressBody = z.object({ currencyId: id, networkId: id });
export type CreateAddressBody = z.infer<typeof createAddressBody>;

export const depositAddress = z.object({
  currencyId: z.number().int(),
  networkId: z.number().int(),
  code: z.string(),
  networkName: z.string(),
  address: z.string(),
  minDeposit: z.string(),
  confirmations: z.number().int(),
  createdAt: isoTime,
});
export type DepositAddress = z.infer<typeof depositAddress>;
export const depositAddressList = z.array(depositAddress);

/**
 * unconfirmed: seen in a UTXO node's mempool, 0/N, never credited; it becomes pending when
 * mined, or disappears when replaced or evicted (docs/decisions/056-unconfirmed-deposits.md).
 */
export const DEPOSIT_STATUSES = ['unconfirmed', 'pending', 'credited', 'dropped', 'below_minimum', 'reorged_after_credit'] as const;
export const depositStatus = z.enum(DEPOSIT_STATUSES);
export type DepositStatus = z.infer<typeof depositStatus>;

export const depositRecord = z.object({
  id: z.number().int(),
  currencyId: z.number().int(),
  code: z.string(),
  networkId: z.number().int(),
  networkName: z.string(),
  amount: z.string(),
  address: z.string(),
  fromAddress: z.string(),
  txHash: z.string(),
  logIndex: z.number().int(),
  blockNumber: z.number().int(),
  confirmations: z.number().int(),
  confirmationsRequired: z.number().int(),
  status: depositStatus,
  /**
   * The deposit's reference: its credit journal entry, the same number on every statement line
   * and CSV row of it; null until credited (docs/decisions/059-exact-on-tap-and-chain-references.md).
   */
  reference: z.number().int().nullable(),
  createdAt: isoTime,
  creditedAt: isoTime.nullable(),
});
export type DepositRecord = z.infer<typeof depositRecord>;

/** `statuses`: any of these (the deposits on their way: unconfirmed and pending); with `status`, both apply. */
export const depositListBody = pageRequest.extend({
  currencyId: id.optional(),
  status: depositStatus.optional(),
  statuses: z.array(depositStatus).min(1).max(DEPOSIT_STATUSES.length).optional(),
});
export type DepositListBody = z.infer<typeof depositListBody>;
export const depositPage = pageResponse(depositRecord);

export { WITHDRAW_CANCELLABLE, WITHDRAW_FINAL, WITHDRAW_STATUSES } from './rules.ts';
export const withdrawStatus = z.enum(WITHDRAW_STATUSES);
export type WithdrawStatus = z.infer<typeof withdrawStatus>;

export const withdrawApplyBody = z.object({
  currencyId: id,
  networkId: id,
  address: safeText({ min: 1, max: ADDRESS_MAX }),
  amount: amountInput,
  /** The fee quote (POST /api/withdraw/quote) whose fee is charged: 3019-3022 when it does not hold. */
  quoteId: id,
  code: z.string().trim().regex(WITHDRAW_CODE_RE, 'code must be 6 digits'),
  memo: memo.optional(),
  /** With two-factor on, one second factor (decision 033): 2006 without. */
  ...stepUpProof,
});
export type WithdrawApplyBody = z.infer<typeof withdrawApplyBody>;

/** Why a queued payout waits (withdrawals.wait_reason, written by the sender). */
export const WITHDRAW_WAIT_REASONS = ['fees_high', 'hot_wallet_short', 'node_unavailable', 'fee_bumps_exhausted'] as const;
export type WithdrawWaitReason = (typeof WITHDRAW_WAIT_REASONS)[number];

export const withdrawRecord = z.object({
  id: z.number().int(),
  currencyId: z.number().int(),
  code: z.string(),
  networkId: z.number().int(),
  networkName: z.string(),
  address: z.string(),
  /** What the address receives. */
  amount: z.string(),
  fee: z.string(),
  /** amount + fee, held from available while in flight. */
  total: z.string(),
  memo: z.string().nullable(),
  status: withdrawStatus,
  txHash: z.string().nullable(),
  confirmations: z.number().int(),
  confirmationsRequired: z.number().int(),
  /** Why it failed or was rejected, when it was. */
  reason: z.string().nullable(),
  /** Why a queued payout is waiting (fees above the cap, hot wallet short, node down), null when not. */
  waitReason: z.enum(WITHDRAW_WAIT_REASONS).nullable(),
  /** Since when it waits for that reason. */
  waitSince: isoTime.nullable(),
  /**
   * The withdrawal's reference: its hold journal entry, carried on the statement lines and CSV
   * rows of its later settle or refund entry too (docs/decisions/059-exact-on-tap-and-chain-references.md).
   */
  reference: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
  completedAt: isoTime.nullable(),
});
export type WithdrawRecord = z.infer<typeof withdrawRecord>;
export const withdrawApplyData = withdrawRecord.extend({ replayed: z.boolean() });
export type WithdrawApplyData = z.infer<typeof withdrawApplyData>;

export const withdrawListBody = pageRequest.extend({ currencyId: id.optional(), status: withdrawStatus.optional() });
export type WithdrawListBody = z.infer<typeof withdrawListBody>;
export const withdrawPage = pageResponse(withdrawRecord);

/** What the withdraw screen shows before submitting: fee, limits, what is left today. */
export const withdrawQuoteQuery = z.object({ networkId: queryId });
export const withdrawLimits = z.object({
  networkId: z.number().int(),
  fee: z.string(),
  min: z.string(),
  max: z.string(),
  dailyLimit: z.string(),
  dailyRemaining: z.string(),
  available: z.string(),
  payoutsFrozen: z.boolean(),
});
export type WithdrawLimits = z.infer<typeof withdrawLimits>;

/**
 * A withdrawal fee quote (docs/decisions/040): the payout's gas at the chain's price plus the
 * network's margin, for a token converted at the swap rate, rounded up, never below the
 * network's minimum fee. Amount and address, when given, make the gas estimate exact.
 */
export const withdrawQuoteBody = z.object({
  networkId: id,
  currencyId: id.optional(),
  amount: amountInput.optional(),
  address: safeText({ min: 1, max: ADDRESS_MAX }).optional(),
});
export type WithdrawQuoteBody = z.infer<typeof withdrawQuoteBody>;

export const withdrawQuoteData = z.object({
  quoteId: z.number().int(),
  networkId: z.number().int(),
  currencyId: z.number().int(),
  /** What a withdrawal with this quote is charged, in the network's currency. */
  fee: z.string(),
  /** The network's minimum fee (the quote is never below it). */
  minFee: z.string(),
  /** Gas units and the gas price (wei) the fee was priced at. */
  gasLimit: z.string(),
  gasPriceWei: z.string(),
  /** The chain's price is above the network's cap: payouts wait for fees to fall. */
  feesHigh: z.boolean(),
  expiresAt: isoTime,
});
export type WithdrawQuoteData = z.infer<typeof withdrawQuoteData>;

export const faucetBody = z.object({ networkId: id });
export const faucetData = z.object({ txHash: z.string(), amount: z.string(), address: z.string() });
export type FaucetData = z.infer<typeof faucetData>;

/** Operator: approve or reject a withdrawal waiting for review. */
export const withdrawReviewBody = z.object({ reason: safeText({ min: 1, max: 500, multiline: true }) });

export const chainIncident = z.object({
  id: z.number().int(),
  networkId: z.number().int(),
  kind: z.string(),
  detail: z.string(),
  createdAt: isoTime,
  resolvedAt: isoTime.nullable(),
});
export const reconcileRow = z.object({
  networkId: z.number().int(),
  code: z.string(),
  networkName: z.string(),
  /** The block every balance was read at. */
  block: z.string(),
  /** Hot wallet, cold address and deposit addresses at that block, in the currency's unit. */
  hot: z.string(),
  cold: z.string(),
  depositAddresses: z.string(),
  /** hot + cold + deposit addresses */
  onChain: z.string(),
  /** Withdrawals mined but not yet settled in the ledger (minus those settled but mined after the block). */
  inFlight: z.string(),
  /** Gas mined but not yet booked (minus gas booked for transactions mined after the block); native network only. */
  gasUnbooked: z.string(),
  /** Deposits on chain not yet credited or booked (minus those booked but mined after the block). */
  inbound: z.string(),
  /** What users hold (available + frozen) in this currency, plus the fees Coffer collected, plus the operator's float. */
  owed: z.string(),
  /** The operator's float on this currency's networks (part of owed). */
  float: z.string(),
  /** onChain + inFlight + gasUnbooked - inbound - owed: must be exactly zero (docs/decisions/038). */
  drift: z.string(),
  ok: z.boolean(),
});
export const reconcileData = z.object({ ok: z.boolean(), rows: z.array(reconcileRow) });
export type ReconcileData = z.infer<typeof reconcileData>;

export const idempotencyKeyHeader = idempotencyKey;

/** Server-sent events on GET /api/events: the app invalidates its queries on each. */
export const LIVE_EVENT_TYPES = ['deposit', 'withdraw', 'balance'] as const;
export const liveEvent = z.object({
  type: z.enum(LIVE_EVENT_TYPES),
  id: z.number().int(),
  status: z.string(),
});
export type LiveEvent = z.infer<typeof liveEvent>;

/** Operator views of the chain side. */
export const chainIncidentList = z.array(chainIncident);
export const resolveIncidentBody = z.object({ resolution: safeText({ min: 1, max: 500, multiline: true }) });
/** Operators: a stuck payout's way out (docs/decisions/037): cancel its nonce on chain, or fail and refund it. */
export const stuckPayoutBody = z.object({ reason: safeText({ min: 1, max: 500, multiline: true }) });
export const stuckPayoutResult = z.object({ id: z.number().int(), status: z.string(), txHash: z.string().nullable() });
export type StuckPayoutResult = z.infer<typeof stuckPayoutResult>;
/** Days back the review facts look (deposits, withdrawals, credential changes and holds). */
export const REVIEW_FACTS_DAYS = 30;
/** Count and exact sum of a user's deposits or withdrawals in one currency. */
export const reviewMoneySum = z.object({ code: z.string(), count: z.number().int(), sum: z.string() });
/**
 * What an operator decides a withdrawal in review on (docs/decisions/044): the user's account,
 * the destination's history, recent credential changes and money moved.
 */
export const withdrawalReviewFacts = z.object({
  accountCreatedAt: isoTime,
  /** No earlier withdrawal of this user to this address completed. */
  firstToAddress: z.boolean(),
  /** Earlier completed withdrawals of this user to this address. */
  completedToAddress: z.number().int(),
  /** When the address went into the user's address book for this network; null: not in it. */
  addressBookSince: isoTime.nullable(),
  /** Credential changes that held withdrawals in the last REVIEW_FACTS_DAYS days, newest first. */
  holds: z.array(z.object({ at: isoTime, reason: z.string(), endsAt: isoTime, active: z.boolean() })),
  /** Credited deposits and other withdrawals (not failed, cancelled or rejected) in the last REVIEW_FACTS_DAYS days. */
  deposits30d: z.array(reviewMoneySum),
  withdrawals30d: z.array(reviewMoneySum),
  totpEnabled: z.boolean(),
  passkeys: z.number().int(),
});
export type WithdrawalReviewFacts = z.infer<typeof withdrawalReviewFacts>;
export const openWithdrawal = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  email: z.string(),
  networkId: z.number().int(),
  networkName: z.string(),
  code: z.string(),
  /** The destination, in full. */
  address: z.string(),
  /** The network's block explorer page of the address; null when the network has no explorer. */
  explorerUrl: z.string().nullable(),
  amount: z.string(),
  fee: z.string(),
  status: withdrawStatus,
  txHash: z.string().nullable(),
  /** Seconds since it was applied for: nothing may wait in a state unnoticed. */
  ageSeconds: z.number().int(),
  /** Why a queued payout waits, and for how many seconds (null when it does not). */
  waitReason: z.enum(WITHDRAW_WAIT_REASONS).nullable().default(null),
  waitSeconds: z.number().int().nullable().default(null),
  /** In review: above the network's second threshold (or already approved once), two different operators must approve. */
  needsSecondOperator: z.boolean(),
  /** The first of two approvals: who, when, why (it waits for a second, different operator). */
  firstApproval: z.object({ by: z.string(), at: isoTime, reason: z.string() }).nullable(),
  /** In review only; null for the other statuses. */
  facts: withdrawalReviewFacts.nullable(),
});
export type OpenWithdrawal = z.infer<typeof openWithdrawal>;
export const openWithdrawalList = z.array(openWithdrawal);

// ---- Operator funding of the hot wallet: POST /api/admin/chain/fund (docs/decisions/038) ----
export const fundHotWalletBody = z.object({
  networkId: z.number().int().positive(),
  txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  reason: safeText({ min: 1, max: 500, multiline: false }),
});
export type FundHotWalletBody = z.infer<typeof fundHotWalletBody>;
export const fundHotWalletData = z.object({
  id: z.number().int(),
  entryId: z.number().int(),
  /** booked into the network's float, in the currency's unit */
  amount: z.string(),
  /** true: this transaction was booked before (nothing booked now) */
  replayed: z.boolean(),
});
export type FundHotWalletData = z.infer<typeof fundHotWalletData>;
