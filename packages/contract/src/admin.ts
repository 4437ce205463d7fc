import { z } from 'zod';
import { decimalString, id, isoTime, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, pageResponse, safeText } from './common.ts';
import { auditReport } from './ledger.ts';
import { operatorReason } from './operator-reason.ts';
import { OPERATOR_REASON_MAX, OPERATOR_ROLES, SWAP_BPS_MAX } from './rules.ts';

export { OPERATOR_REASON_MAX, OPERATOR_ROLES, SWAP_BPS_MAX };

/**
 * The operator console's server API (/api/admin/..., operators only: HTTP 403 for a signed-in
 * user, 2001 signed out). Money is a decimal string throughout; times are ISO 8601 strings.
 */

/** Longest search text for the user list. */
export const USER_SEARCH_MAX = 320;
/** Ledger postings shown on a user's page. */
export const USER_RECENT_POSTINGS = 20;
/** Security events (sign-ins, refused sign-ins, credential changes that opened a hold) on a user's console page. */
export const USER_SECURITY_EVENTS = 30;

export { operatorReason } from './operator-reason.ts';
export * from './admin-swap.ts';

/** A positive integer in a query string or path ("12"); anything else is 1001. */
const queryInt = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

/** Paging in a query string: ?page=1&pageSize=20 (at most PAGE_SIZE_MAX). */
export const adminPageQuery = z.object({
  page: queryInt.default(1),
  pageSize: queryInt.pipe(z.number().max(PAGE_SIZE_MAX)).default(PAGE_SIZE_DEFAULT),
});
export type AdminPageQuery = z.input<typeof adminPageQuery>;

/** Path parameter of the user routes: /api/admin/users/{uid}. */
export const uidParams = z.object({ uid: queryInt });

// ---- Audit trail: GET /api/admin/audit-trail ----------------------------------------------

export const auditTrailQuery = adminPageQuery.extend({
  /** The operator's e-mail (or "cli:<os user>"), exact, case-insensitive. */
  actor: safeText({ min: 1, max: 320 }).optional(),
  /** Action name or its dotted prefix: "user" matches "user.disable" and "user.enable". */
  action: z
    .string()
    .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\.?$/, 'a dotted action name or prefix')
    .max(64)
    .optional(),
  targetType: safeText({ min: 1, max: 64 }).optional(),
  targetId: safeText({ min: 1, max: 128 }).optional(),
});
export type AuditTrailQuery = z.input<typeof auditTrailQuery>;

export const operatorActionRecord = z.object({
  id: z.number().int(),
  actorUserId: z.number().int().nullable(),
  actor: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  reason: z.string().nullable(),
  /** The record before the change (null for a create) and after it. */
  before: z.unknown(),
  after: z.unknown(),
  createdAt: isoTime,
});
export type OperatorActionRecord = z.infer<typeof operatorActionRecord>;
export const auditTrailPage = pageResponse(operatorActionRecord);
export type AuditTrailPage = z.infer<typeof auditTrailPage>;

// ---- Ledger audit runs: POST /api/admin/ledger/audit/run ----------------------------------

export const ledgerAuditRun = z.object({
  id: z.number().int(),
  ok: z.boolean(),
  /** Per check: name -> violations (0 when it passed). */
  summary: z.record(z.string(), z.number().int()),
  actor: z.string(),
  ranAt: isoTime,
});
export type LedgerAuditRun = z.infer<typeof ledgerAuditRun>;
export const ledgerAuditRunData = z.object({ run: ledgerAuditRun, report: auditReport });
export type LedgerAuditRunData = z.infer<typeof ledgerAuditRunData>;

// ---- Dashboard: GET /api/admin/dashboard ---------------------------------------------------

export const dashboardBalance = z.object({
  currencyId: z.number().int(),
  code: z.string(),
  /** Sums over every user's available / frozen account. */
  usersAvailable: decimalString,
  usersFrozen: decimalString,
  /** The system accounts' balances (negative: owed / mirrored money). */
  house: decimalString,
  fees: decimalString,
  world: decimalString,
  adjustments: decimalString,
});
export const swapVolume = z.object({
  currencyId: z.number().int(),
  code: z.string(),
  /** Amounts of this currency users sold (from) and bought (to) in the window. */
  sold24h: decimalString,
  bought24h: decimalString,
  sold7d: decimalString,
  bought7d: decimalString,
});
/** Custody per network at the latest reconciliation (docs/decisions/038). */
export const dashboardCustody = z.object({
  networkId: z.number().int(),
  code: z.string(),
  networkName: z.string(),
  hot: decimalString,
  cold: decimalString,
  depositAddresses: decimalString,
  /** The operator's float in the ledger (funding - gas + deposits below the minimum). */
  float: decimalString,
  /** Must be 0; anything else has frozen the network's payouts. */
  drift: decimalString,
  ok: z.boolean(),
  block: z.string(),
  takenAt: isoTime,
});
/** An open operator alert: the hot wallet is below its floor by `amount`. */
export const dashboardHotAlert = z.object({
  networkId: z.number().int(),
  code: z.string(),
  amount: decimalString,
  detail: z.string(),
  openedAt: isoTime,
});
export const dashboardData = z.object({
  users: z.object({ total: z.number().int(), new24h: z.number().int(), disabled: z.number().int() }),
  balances: z.array(dashboardBalance),
  swapVolume: z.array(swapVolume),
  custody: z.array(dashboardCustody),
  hotAlerts: z.array(dashboardHotAlert),
  withdrawalsInReview: z.number().int(),
  /** The chain leader's loop per chain (docs/decisions/037): unhealthy while its ticks fail (RPC node down) and it backs off. */
  chainLoops: z.array(z.object({ chainId: z.number().int(), healthy: z.boolean(), since: isoTime, lastError: z.string().nullable() })),
  lastAudit: ledgerAuditRun.nullable(),
  generatedAt: isoTime,
});
export type DashboardData = z.infer<typeof dashboardData>;

// ---- Users: GET /api/admin/users, GET /api/admin/users/{uid}, POST .../disable|enable ------

export const adminUserQuery = adminPageQuery.extend({
  /** E-mail substring (case-insensitive), or a uid (digits: exact uid, or in an e-mail). */
  q: safeText({ max: USER_SEARCH_MAX }).optional(),
});
export type AdminUserQuery = z.input<typeof adminUserQuery>;

export const adminUserSummary = z.object({
  uid: z.number().int(),
  email: z.string(),
  nickname: z.string(),
  role: z.enum(['user', 'operator']),
  createdAt: isoTime,
  disabled: z.boolean(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummary>;
export const adminUserPage = pageResponse(adminUserSummary);
export type AdminUserPage = z.infer<typeof adminUserPage>;

export const adminUserBalance = z.object({
  currencyId: z.number().int(),
  code: z.string(),
  available: decimalString,
  frozen: decimalString,
});
export const adminUserPosting = z.object({
  entryId: z.number().int(),
  /** The journal entry's kind: transfer, swap, adjustment, deposit, withdraw, ... */
  kind: z.string(),
  currencyId: z.number().int(),
  code: z.string(),
  account: z.enum(['available', 'frozen']),
  amount: decimalString,
  balanceAfter: decimalString,
  createdAt: isoTime,
});
/**
 * One security event of a user, newest first on the user page: `sign_in` (code `success`),
 * `sign_in_failed` (code `password_wrong` or `second_factor_wrong`), or `hold`: a credential
 * change that held withdrawals (code = the change: password_reset, password_changed,
 * two_factor_disabled, passkey_added, passkey_removed, new_device), with when it ends and
 * whether it is still in force.
 */
export const adminSecurityEvent = z.object({
  at: isoTime,
  type: z.enum(['sign_in', 'sign_in_failed', 'hold']),
  code: z.string(),
  ip: z.string().nullable(),
  endsAt: isoTime.nullable(),
  active: z.boolean(),
});
export type AdminSecurityEvent = z.infer<typeof adminSecurityEvent>;

/**
 * A link an operator made between two user accounts (the same person, one household): transfers
 * between linked accounts do not count in activity rankings. `uid`/`email` name the other account.
 */
export const accountLink = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  email: z.string(),
  reason: z.string(),
  /** The operator who made the link (e-mail). */
  createdBy: z.string(),
  createdAt: isoTime,
});
export type AccountLink = z.infer<typeof accountLink>;

export const adminUserDetail = adminUserSummary.extend({
  language: z.string().nullable(),
  disabledAt: isoTime.nullable(),
  disabledReason: z.string().nullable(),
  twoFactor: z.boolean(),
  /** The open operator-assisted two-factor reset: it removes the authenticator at completesAt unless cancelled. */
  twoFactorReset: z.object({ createdAt: isoTime, completesAt: isoTime, operator: z.string(), reason: z.string() }).nullable(),
  activeSessions: z.number().int(),
  balances: z.array(adminUserBalance),
  /** The latest USER_RECENT_POSTINGS postings on the user's accounts, newest first. */
  postings: z.array(adminUserPosting),
  /** The latest USER_SECURITY_EVENTS security events, newest first. */
  securityEvents: z.array(adminSecurityEvent),
  /** Accounts an operator linked to this one (live links, newest first). */
  links: z.array(accountLink),
});
export type AdminUserDetail = z.infer<typeof adminUserDetail>;

/** Disable or enable sign-in: 3007 for oneself or another operator, 4004 unknown uid. */
export const userStatusBody = z.object({ reason: operatorReason });
export type UserStatusBody = z.infer<typeof userStatusBody>;

/**
 * Open (or cancel) an operator-assisted two-factor reset: POST /api/admin/users/{uid}/two-factor-reset
 * (and .../cancel). Opening: 3007 when two-factor is off, one is open, or for an operator.
 */
export const twoFactorResetBody = z.object({ reason: operatorReason });
export type TwoFactorResetBody = z.infer<typeof twoFactorResetBody>;

/**
 * Support actions on a user, each with its reason and audited: POST /api/admin/users/{uid}/sign-out
 * (end every session now; 3007 when none is live, for oneself or another operator) and
 * POST /api/admin/users/{uid}/holds/end (end the withdrawal holds in force; 3007 when none is).
 */
export const userSupportBody = z.object({ reason: operatorReason });
export type UserSupportBody = z.infer<typeof userSupportBody>;

// ---- Adjustments log: GET /api/admin/ledger/adjustments ------------------------------------

export const adjustmentQuery = adminPageQuery.extend({ uid: queryInt.optional() });
export type AdjustmentQuery = z.input<typeof adjustmentQuery>;
export const adjustmentRecord = z.object({
  id: z.number().int(),
  entryId: z.number().int(),
  uid: z.number().int(),
  email: z.string(),
  currencyId: z.number().int(),
  code: z.string(),
  /** Signed: negative for a debit. */
  amount: decimalString,
  reason: z.string(),
  actor: z.string(),
  actorUserId: z.number().int().nullable(),
  createdAt: isoTime,
});
export type AdjustmentRecord = z.infer<typeof adjustmentRecord>;
export const adjustmentPage = pageResponse(adjustmentRecord);
export type AdjustmentPage = z.infer<typeof adjustmentPage>;

// ---- Linked accounts: POST /api/admin/users/{uid}/links, POST .../links/{id}/remove ---------

/** Link another account to this one: 3054 itself, 3053 already linked, 3007 an operator's account, 4004 unknown uid. */
export const accountLinkBody = z.object({ uid: id, reason: operatorReason });
export type AccountLinkBody = z.infer<typeof accountLinkBody>;
export const accountLinkParams = z.object({ uid: queryInt, id: queryInt });
/** Remove a live link of this user's: 4004 no such link on this user, 3055 already removed. */
export const accountLinkRemoveBody = z.object({ reason: operatorReason });
export type AccountLinkRemoveBody = z.infer<typeof accountLinkRemoveBody>;
// ---- Operators and their roles (decision 045) ----------------------------------------------

export const operatorRole = z.enum(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof operatorRole>;

/** GET /api/operator/session: what the console needs to know about its own session. */
export const operatorSessionData = z.object({
  uid: z.number().int(),
  email: z.string(),
  roles: z.array(operatorRole),
  /** An authenticator or a passkey is enrolled (without one every admin route answers 3045). */
  secondFactorEnrolled: z.boolean(),
  /** This session passed the second factor after it was enrolled (without it: 3046). */
  sessionVerified: z.boolean(),
  /** The session ends after this many minutes without a request (OPERATOR_IDLE_MINUTES). */
  idleMinutes: z.number().int(),
  /** It ends at this time whatever happens (OPERATOR_SESSION_HOURS after sign-in). */
  expiresAt: isoTime,
});
export type OperatorSessionData = z.infer<typeof operatorSessionData>;

/** One row of GET /api/admin/operators. */
export const operatorItem = z.object({
  uid: z.number().int(),
  email: z.string(),
  nickname: z.string(),
  roles: z.array(operatorRole),
  /** Authenticator codes on. */
  totp: z.boolean(),
  passkeys: z.number().int(),
  /** The newest request of any of their sessions (written at most once a minute). */
  lastSeenAt: isoTime.nullable(),
});
export type OperatorItem = z.infer<typeof operatorItem>;
export const operatorList = z.array(operatorItem);

/**
 * POST /api/admin/operators/:uid/roles: the whole role set with the reason. A user who is not an
 * operator becomes one; an empty set ends operator status. 3047 when it would leave no admin.
 */
export const operatorRolesBody = z.object({
  roles: z
    .array(operatorRole)
    .max(OPERATOR_ROLES.length)
    .refine((r) => new Set(r).size === r.length, 'duplicate role'),
  reason: operatorReason,
});
export type OperatorRolesBody = z.infer<typeof operatorRolesBody>;
/** `changed` false: the roles were already so; nothing written, no audit row. */
export const operatorRolesData = operatorItem.extend({ changed: z.boolean() });
export type OperatorRolesData = z.infer<typeof operatorRolesData>;
