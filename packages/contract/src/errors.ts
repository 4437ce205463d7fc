import { DEFAULT_LOCALE, FALLBACK_LOCALE, type Locale, LOCALES } from './rules.ts';

/**
 * The one catalogue of business result codes (docs/product.md §5.4). Numbers are never reused:
 * add new codes at the end of their block.
 */
export const ErrorCode = {
  OK: 0,
  INVALID_PARAMS: 1001,
  TOO_MANY_REQUESTS: 1002,
  NOT_SIGNED_IN: 2001,
  WRONG_CREDENTIALS: 2002,
  EMAIL_TAKEN: 2003,
  WRONG_EMAIL_CODE: 2004,
  /** Too many wrong codes for this address and purpose (10 per 24 h): codes refused for now. */
  TOO_MANY_WRONG_CODES: 2005,
  /** Two-factor is on: this needs the authenticator (or a recovery) code. */
  SECOND_FACTOR_REQUIRED: 2006,
  /** Wrong, already used or replayed authenticator / recovery code. */
  WRONG_SECOND_FACTOR: 2007,
  /** The sign-in's second-factor challenge is unknown, used or expired: sign in again. */
  SECOND_FACTOR_EXPIRED: 2008,
  /** The passkey could not be verified (unknown, wrong signature or challenge). */
  PASSKEY_FAILED: 2009,
  /** An operator disabled this account's sign-in. */
  ACCOUNT_DISABLED: 2010,
  /** Too many live event streams for the session or account: the oldest was closed. */
  TOO_MANY_STREAMS: 2011,
  /** The current password given to change it is wrong. */
  WRONG_CURRENT_PASSWORD: 2012,
  /** This change needs a recent re-authentication (password, or the second factor): POST /api/security/reauth. */
  REAUTH_REQUIRED: 2013,
  INSUFFICIENT_BALANCE: 3001,
  AMOUNT_OUT_OF_RANGE: 3002,
  CURRENCY_UNAVAILABLE: 3003,
  RECIPIENT_NOT_FOUND: 3004,
  CANNOT_SEND_TO_SELF: 3005,
  QUOTE_EXPIRED: 3006,
  NOT_ALLOWED_IN_STATE: 3007,
  INVALID_ADDRESS: 3008,
  LIMIT_EXCEEDED: 3009,
  IDEMPOTENCY_KEY_REUSED: 3010,
  HOUSE_LIMIT_REACHED: 3011,
  PAYOUTS_FROZEN: 3012,
  /** The destination burns what it receives: the zero address, a precompile, a token contract. */
  UNSPENDABLE_ADDRESS: 3013,
  /** Withdrawals wait during a security hold after a credential change (the message says how long). */
  WITHDRAWAL_HOLD: 3014,
  /** The address-book entry is still in its waiting time (the message says how long). */
  ADDRESS_NOT_YET_USABLE: 3015,
  /** "Whitelist only" is on and the destination is not in the address book. */
  ADDRESS_NOT_IN_BOOK: 3016,
  /** A transfer above the currency's hold-free amount during a security hold. */
  TRANSFER_HOLD: 3017,
  /** The address book already holds this address for this network. */
  ADDRESS_ALREADY_IN_BOOK: 3018,
  /** The withdrawal fee quote's window has passed: ask for a new one (POST /api/withdraw/quote). */
  FEE_QUOTE_EXPIRED: 3019,
  /** The withdrawal fee quote was already spent by another withdrawal. */
  FEE_QUOTE_USED: 3020,
  /** No such withdrawal fee quote for this user (unknown, or another user's). */
  FEE_QUOTE_UNKNOWN: 3021,
  /** The withdrawal fee quote was made for another network. */
  FEE_QUOTE_OTHER_NETWORK: 3022,
  /** An attempt of this payout can still be mined (its nonce is open, or one has a receipt): no refund yet. */
  PAYOUT_STILL_MINEABLE: 3023,
  /** The network's gas price cap leaves no room for a replacement at +10%: raise the cap first. */
  GAS_PRICE_CAP_REACHED: 3024,
  /** An operator funding refused: the transaction paid nothing to the hot wallet on that network, or it is Coffer's own. */
  FUNDING_REFUSED: 3031,
  /** A network setting out of range or inconsistent with the others (the detail names it). */
  NETWORK_SETTING_INVALID: 3027,
  /** A network on a non-local chain needs a gas price cap (docs/decisions/041). */
  GAS_PRICE_CAP_REQUIRED: 3028,
  /** The cold address is one Coffer holds the key of (the hot wallet or a deposit address). */
  COLD_ADDRESS_NOT_COLD: 3029,
  /** The token contract does not answer decimals() on its chain, or answers other decimals. */
  TOKEN_CONTRACT_UNVERIFIED: 3030,
  /** Four eyes: the operator who asked for this may not approve it; another operator must. */
  SECOND_OPERATOR_REQUIRED: 3041,
  /** A Web Push subscription whose endpoint this server will not post to (not https, or a local address; docs/decisions/054). */
  PUSH_ENDPOINT_REFUSED: 3042,
  /** The two accounts are linked already (account links, docs/decisions/047). */
  ACCOUNTS_ALREADY_LINKED: 3053,
  /** An account cannot be linked to itself. */
  ACCOUNT_LINK_SELF: 3054,
  /** The account link was removed already. */
  ACCOUNT_LINK_REMOVED: 3055,
  /** The withdrawal address is valid, but on another network of the same kind of chain (e.g. a Bitcoin address for Litecoin). */
  ADDRESS_OTHER_NETWORK: 3056,
  /** The withdrawal address belongs to another kind of chain (e.g. an EVM 0x address for Bitcoin). */
  ADDRESS_OTHER_FAMILY: 3057,
  /** The network's chain has no node on this server (e.g. Litecoin without UTXO_RPC_URL or a local litecoind). */
  NETWORK_NOT_SERVED: 3063,
  /** The alert is resolved (its condition cleared): there is nothing left to acknowledge. */
  ALERT_RESOLVED: 3050,
  /** The alert was already acknowledged (by this or another operator). */
  ALERT_ALREADY_ACKNOWLEDGED: 3051,
  /** An operator without a second factor enrolled (authenticator or passkey): refused every admin route. */
  OPERATOR_SECOND_FACTOR_REQUIRED: 3045,
  /** The operator's session was not opened (or stepped up) with the second factor: sign in again with it. */
  OPERATOR_SESSION_NOT_VERIFIED: 3046,
  /** The last admin cannot lose the admin role (nobody could assign roles any more). */
  LAST_ADMIN: 3047,
  NOT_FOUND: 4004,
  FORBIDDEN: 4003,
  INTERNAL: 5000,
  /** An uploaded file was refused: not an allowed image type, or too large. */
  UPLOAD_REFUSED: 6001,
  /** The activity has started: only its titles and rules may change now (decision 015). */
  ACTIVITY_STARTED: 6020,
  /** The activity's winners are fixed (settled or paid): no more funding or changes. */
  ACTIVITY_SETTLED: 6021,
  /** The activity already holds funding: its prize currency can no longer change. */
  ACTIVITY_FUNDED: 6022,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

export { DEFAULT_LOCALE, FALLBACK_LOCALE, type Locale, LOCALES };

/** Default message per code and language; a server may pass a more precise one. */
export const errorMessages: Record<Locale, Record<ErrorCodeValue, string>> = {
  'zh-CN': {
    0: '成功',
    1001: '参数错误',
    1002: '请求过于频繁，请稍后再试',
    2001: '未登录或登录已失效',
    2002: '邮箱或密码错误',
    2003: '该邮箱已注册',
    2004: '验证码错误或已过期',
    2005: '验证码错误次数过多，请稍后再试（最长 24 小时）',
    2006: '请输入身份验证器中的动态码',
    2007: '动态码或恢复码错误，或已使用',
    2008: '登录验证已过期，请重新登录',
    2009: '通行密钥验证失败',
    2010: '该账户已被停用，请联系客服',
    2011: '打开的实时连接过多，最早的连接已关闭',
    2012: '当前密码错误',
    2013: '请先确认您的登录密码',
    3001: '余额不足',
    3002: '金额超出范围或小数位过多',
    3003: '币种或网络暂不可用',
    3004: '收款人不存在',
    3005: '不能转给自己',
    3006: '报价已过期或汇率已变动',
    3007: '当前状态不允许此操作',
    3008: '地址无效',
    3009: '超出限额',
    3010: '幂等键已用于另一请求',
    3011: '兑换额度暂时不足',
    3012: '该网络暂停提现，请稍后再试',
    3013: '该地址无法收款：转入的资产将被销毁且无法取回（零地址、预编译合约或代币合约）',
    3014: '账户安全变更后提现暂缓，请稍后再试',
    3015: '该地址簿地址尚在等待期内，暂不可用',
    3016: '已开启仅限地址簿提现，请先将该地址加入地址簿',
    3017: '账户处于安全暂缓期，转账金额超出暂缓期内允许的上限',
    3018: '该地址已在地址簿中',
    3019: '手续费报价已过期，请重新获取',
    3020: '该手续费报价已被使用，请重新获取',
    3021: '手续费报价不存在',
    3022: '该手续费报价属于另一个网络',
    3023: '该笔提现的交易仍可能被打包上链，暂不能退款',
    3024: '已达到该网络的 Gas 价格上限，无法以更高价格替换交易，请先调高上限',
    3031: '该交易未向此网络的热钱包转入资产（或是系统自身的交易），无法记为备用金',
    3027: '网络设置无效',
    3028: '非本地链的网络必须设置 Gas 价格上限',
    3029: '冷钱包地址不能是热钱包或充值地址（服务器持有它们的私钥）',
    3030: '代币合约校验失败：该地址在其链上未应答 decimals()，或精度与设置不符',
    3041: '需要另一位运营人员审批，发起人不能审批自己的申请',
    3042: '无法使用此浏览器的推送地址，请换用其他浏览器',
    3053: '这两个账户已经关联',
    3054: '账户不能与自身关联',
    3055: '该关联已被解除',
    3056: '该地址属于其他网络',
    3057: '该地址属于其他类型的区块链',
    3063: '本服务器尚未配置该网络（没有连接它的区块链节点）',
    3050: '该告警已解除（情况已恢复），无需确认',
    3051: '该告警已被确认过',
    3045: '运营人员必须先启用第二重验证：请在钱包的安全中心绑定身份验证器或通行密钥',
    3046: '本次登录未经过第二重验证：请退出后使用验证码或通行密钥重新登录',
    3047: '不能移除最后一位管理员的管理员角色',
    4003: '没有权限',
    4004: '记录不存在',
    5000: '服务器内部错误',
    6001: '文件被拒绝：仅支持 PNG、JPEG、WebP 图片且不超过大小限制',
    6020: '活动已开始，只能修改标题和规则',
    6021: '活动获奖名单已确定，不能再修改或注资',
    6022: '活动已有奖金注资，不能更换奖金币种',
  },
  'en-US': {
    0: 'Success',
    1001: 'Invalid parameters',
    1002: 'Too many requests, please try again later',
    2001: 'Not signed in or session expired',
    2002: 'Wrong e-mail or password',
    2003: 'This e-mail is already registered',
    2004: 'Wrong or expired e-mail code',
    2005: 'Too many wrong e-mail codes for this address, please try again later (at most 24 hours)',
    2006: 'Enter the code from your authenticator app',
    2007: 'Wrong or already used authenticator or recovery code',
    2008: 'The sign-in check expired, please sign in again',
    2009: 'The passkey could not be verified',
    2010: 'This account is disabled, please contact support',
    2011: 'Too many live streams are open; the oldest one was closed',
    2012: 'The current password is wrong',
    2013: 'Confirm your password first',
    3001: 'Insufficient balance',
    3002: 'Amount out of range or too many decimals',
    3003: 'Currency or network unavailable',
    3004: 'Recipient not found',
    3005: 'You cannot send to yourself',
    3006: 'Quote expired or rate moved',
    3007: 'Not allowed in this state',
    3008: 'Invalid address',
    3009: 'Limit exceeded',
    3010: 'Idempotency key reused with a different request',
    3011: 'Swap liquidity temporarily insufficient',
    3012: 'Withdrawals on this network are paused, please try again later',
    3013: 'This address cannot receive funds: whatever is sent there is burned and cannot be recovered (zero address, precompile or token contract)',
    3014: 'Withdrawals are on hold after a security change to your account, please try again later',
    3015: 'This address-book entry is still in its waiting period',
    3016: 'Whitelist-only withdrawals are on: add this address to your address book first',
    3017: 'Your account is in a security hold: this transfer is above the amount allowed during the hold',
    3018: 'This address is already in your address book',
    3019: 'The fee quote has expired, please get a new one',
    3020: 'This fee quote was already used, please get a new one',
    3021: 'Fee quote not found',
    3022: 'This fee quote is for another network',
    3023: 'A transaction of this withdrawal can still be mined: it cannot be refunded yet',
    3024: "The network's gas price cap leaves no room for a higher-priced replacement: raise the cap first",
    3031: 'This transaction paid nothing to the hot wallet on this network (or it is Coffer’s own): it cannot be booked as float',
    3027: 'Invalid network setting',
    3028: 'A network on a non-local chain needs a gas price cap',
    3029: 'The cold address must not be the hot wallet or a deposit address (the server holds their keys)',
    3030: 'Token contract check failed: it does not answer decimals() on its chain, or its decimals differ from the setting',
    3041: 'Another operator must approve this: the one who asked for it cannot',
    3042: "This browser's push address cannot be used; try another browser",
    3053: 'These two accounts are linked already',
    3054: 'An account cannot be linked to itself',
    3055: 'This link was removed already',
    3056: 'This address belongs to another network',
    3057: 'This address belongs to another kind of chain',
    3063: 'This network is not configured on this server (no node of its chain is connected)',
    3050: 'This alert is resolved (its condition cleared): there is nothing to acknowledge',
    3051: 'This alert was already acknowledged',
    3045: "Operators need a second factor: enrol an authenticator or a passkey in the wallet's security centre first",
    3046: 'This session was not opened with the second factor: sign out and sign in again with your code or passkey',
    3047: 'The last admin cannot lose the admin role',
    4003: 'Forbidden',
    4004: 'Not found',
    5000: 'Internal server error',
    6001: 'File refused: only PNG, JPEG or WebP images within the size limit',
    6020: 'The activity has started: only its title and rules can change',
    6021: "The activity's winners are fixed: it can no longer be changed or funded",
    6022: 'The activity already holds prize funding: its prize currency cannot change',
  },
};

/** Picks a supported locale from an accept-language header value (exact, then prefix). */
export function pickLocale(acceptLanguage: string | undefined | null): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const wanted = acceptLanguage
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  for (const tag of wanted) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const prefix = LOCALES.find((l) => l.toLowerCase().split('-')[0] === tag.split('-')[0]);
    if (prefix) return prefix;
  }
  return DEFAULT_LOCALE;
}
