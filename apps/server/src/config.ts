import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AMOUNT_RE, isAmountWithinLimits } from '@coffer/contract/rules';
import { z } from 'zod';
import { HOST_NAME, type WebAuthnSettings, webauthnSettings } from './config-webauthn.ts';
import { checkSigner, checkWorkers, type EvmChainSetting, evmChains, parseEvmRpcUrls } from './config-chains.ts';
import { UTXO_NETWORK_NAMES, type UtxoNodeSetting, utxoNode } from './config-utxo.ts';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

/** proxy-addr's named ranges, accepted by Fastify's trustProxy list as they are. */

const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_PROXY_HOPS = 10;
/** Upper bound of WORKERS: each process holds DATABASE_POOL_SIZE connections (and up to LANE_POOL_SIZE for its writers) of the server's max_connections. */
const MAX_WORKERS = 32;
/** Upper bound of TRANSFER_BATCHES_IN_FLIGHT: batches queued behind one another on the writer's connection. */
const MAX_TRANSFER_BATCHES_IN_FLIGHT = 4;

/** An amount in the contract's one grammar that fits NUMERIC(38,18) ("0" allowed). */
function isLedgerAmount(value: string): boolean {
  return AMOUNT_RE.test(value) && isAmountWithinLimits(value);
}

/** "USDT=1000000": a currency code and a ledger amount. */
function isHouseLimitEntry(entry: string): boolean {
  const [code, amount, ...rest] = entry.split('=');
  return rest.length === 0 && /^[A-Za-z0-9]{1,16}$/.test(code ?? '') && isLedgerAmount(amount ?? '');
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_PROXY_RANGES.includes(entry)) return true;
  const [ip = '', bits, ...rest] = entry.split('/');
  const version = net.isIP(ip);
  if (!version || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * `true` is refused: Fastify would then trust every hop, and the client's own left-most
 * X-Forwarded-For entry would be its IP, so anyone could pick a fresh IP per request and
 * per-IP limits would not hold. A hop count or the proxies' addresses are safe.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): false | number | string[] {
  if (value === '' || value === 'false') return false;
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (value === 'true') {
    return fail(
      'true is no longer accepted: it trusts any X-Forwarded-For a client sends, so per-IP limits can be bypassed. ' +
        'Set the number of proxies in front of the server (a hop count, e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= MAX_PROXY_HOPS) return hops;
    return fail(`a hop count must be 1-${MAX_PROXY_HOPS} (use false for no proxy)`);
  }
  const list = value.split(',').map((entry) => entry.trim());
  const bad = list.filter((entry) => !isProxyAddress(entry));
  if (bad.length > 0) {
    return fail(
      `must be false, a hop count or a comma-separated list of proxy IP addresses or CIDRs (not ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
    );
  }
  return list;
}

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count becomes a function: this Fastify treats a
 * bare number as "trust nothing", because a hop count cannot tell the proxy from a client that
 * reaches the server directly. So a hop count is only for a server that can be reached through
 * its proxies alone (README); a list of the proxies' addresses is safe everywhere.
 */
export function fastifyTrustProxy(value: false | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return value;
}

/** Every setting comes from the environment (DESIGN §4); names are part of the product. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Prometheus metrics at /metrics on a port of their own, bound to HOST; unset: off (decision 024). */
  METRICS_PORT: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
  DATA_DIR: z.string().min(1).default('./.coffer'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * API processes sharing the port (node cluster), each with its own pool of
   * DATABASE_POOL_SIZE connections. More than 1 needs PostgreSQL and a chain that is not the
   * embedded one (checked below).
   */
  WORKERS: z.coerce.number().int().min(1).max(MAX_WORKERS).default(1),
  /**
   * Transfer batches one process may have in flight on PostgreSQL (PGlite: always 1). They are
   * pipelined on the writer's one connection: the next starts as the one before commits, with
   * no round trip between (decision 030). Measured on 2 cores at 16 clients: 2 about 7% ahead
   * of 1; more only queue more on the server.
   */
  TRANSFER_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(MAX_TRANSFER_BATCHES_IN_FLIGHT).default(2),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  MAIL_FROM: z.string().min(3).default('Coffer <no-reply@coffer.local>'),
  /** One chain's node (its chain id read from it); or EVM_RPC_URLS, several: "1=https://…,42161=https://…". */
  EVM_RPC_URL: optionalUrl(['http://', 'https://', 'ws://', 'wss://']),
  EVM_RPC_URLS: z.string().trim().default('').transform(parseEvmRpcUrls),
  /** A Bitcoin Core or Litecoin Core node, credentials in the URL: "http://user:pass@host:9332" (decision 048). */
  UTXO_RPC_URL: optionalUrl(['http://', 'https://']),
  /** The network UTXO_RPC_URL runs, e.g. litecoin or bitcoin. */
  UTXO_NETWORK: z.enum(UTXO_NETWORK_NAMES as [string, ...string[]]).optional(),
  /** The BIP-84 account public key deposits derive from (m/84'/coin'/0'): the server holds no UTXO private key. */
  UTXO_ACCOUNT_XPUB: z.string().trim().optional(),
  /** Embedded mode without UTXO_RPC_URL: a local litecoind regtest node when litecoind is on the PATH. */
  LOCAL_UTXO: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /** UTXO payouts (decision 051): a batch once the oldest queued withdrawal waited this long ... */
  UTXO_BATCH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** ... or once this many are queued (also the most one batch transaction pays). */
  UTXO_BATCH_SIZE: z.coerce.number().int().min(1).max(500).default(50),
  /** A batch transaction not mined after this long is replaced at a higher fee (replace-by-fee). */
  UTXO_BUMP_AFTER_SECONDS: z.coerce.number().int().min(5).max(86_400).default(1800),
  /** Seconds between the local regtest node's blocks; 0: none on a clock (a test mines them over RPC). */
  LOCAL_UTXO_BLOCK_SECONDS: z.coerce.number().int().min(0).max(600).default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().default(path.resolve(serverRoot, '../web/dist')),
  /** The operator console's build, served at /console/ (absent: /console answers 404). */
  CONSOLE_DIST_DIR: z.string().min(1).default(path.resolve(serverRoot, '../console/dist')),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  /**
   * How long an operator-assisted two-factor reset waits before the authenticator is removed:
   * the owner is mailed at once and may cancel it meanwhile (docs/security.md).
   */
  TWO_FACTOR_RESET_WAIT_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(72),
  /**
   * How long withdrawals wait after a credential change (password reset, two-factor off, a
   * passkey added or removed, a sign-in from a new device); 0 turns the hold off. At most 30 days.
   */
  WITHDRAWAL_HOLD_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  /** How long a new address-book entry waits before it may be paid (none when added with the second factor). */
  ADDRESS_BOOK_DELAY_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  /**
   * An operator's session lasts at most this long after sign-in (1 h to 7 days), and ends after
   * OPERATOR_IDLE_MINUTES without a request (5 min to 24 h); decision 045.
   */
  OPERATOR_SESSION_HOURS: z.coerce.number().int().min(1).max(168).default(8),
  OPERATOR_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(30),
  /**
   * Comma-separated e-mails that bootstrap the first admin: such an address becomes an operator
   * with every role when it registers (or at start-up, when it already has an account) while no
   * admin exists yet. Later operators are made in the console (decision 045).
   */
  OPERATOR_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Off only in tests that need many calls from one address. */
  RATE_LIMIT: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /**
   * Which peers may say who the client is (X-Forwarded-For): false (none), the number of
   * proxies in front (hop count) or the proxies' addresses and CIDRs. Fastify's trustProxy.
   */
  TRUST_PROXY: z.string().trim().default('false').transform(parseTrustProxy),
  /**
   * on: Web Push subscriptions may name plain-http and local endpoints (tests with a local push
   * service); off, only https to a named host, so a user cannot make the server post inward.
   */
  PUSH_LOCAL_ENDPOINTS: z
    .enum(['on', 'off'])
    .default('off')
    .transform((v) => v === 'on'),
  /** on: the site is served over HTTPS (here or at a proxy): send HSTS, upgrade insecure requests. */
  HSTS: z
    .enum(['on', 'off'])
    .default('off')
    .transform((v) => v === 'on'),
  /** Swap prices from an external JSON feed; unset means the operator's swap_pairs table. */
  RATE_FEED_URL: optionalUrl(['http://', 'https://']),
  /** A feed price older than this makes its pairs unavailable (3003), never a stale price. */
  RATE_FEED_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * How much of each currency the house (swap counterparty) may owe, seeded at start for
   * currencies that have no limit yet: "USDT=1000000,ETH=500". A limit once set is operator
   * data (changed in the console); a restart never overwrites it.
   */
  HOUSE_LIMITS: z
    .string()
    .trim()
    .default('USDT=1000000,USDC=1000000,ETH=500,BTC=25')
    .refine((v) => v === '' || v.split(',').every(isHouseLimitEntry), {
      message: 'must look like "USDT=1000000,ETH=500"',
    })
    .transform((v) =>
      v === ''
        ? []
        : v.split(',').map((pair) => {
            const [code, limit] = pair.split('=') as [string, string];
            return { code: code.toUpperCase(), limit };
          }),
    ),
  /**
   * Four eyes on money: a console adjustment of more than this, per currency, waits for a
   * second, different operator's approval: "USDT=1000,ETH=0.5". A currency not listed always
   * needs one. Configuration, not console data, so one operator cannot lift it.
   */
  ADJUST_APPROVAL_ABOVE: z
    .string()
    .trim()
    .default('USDT=1000,USDC=1000,ETH=0.5,BTC=0.02')
    .refine((v) => v === '' || v.split(',').every(isHouseLimitEntry), {
      message: 'must look like "USDT=1000,ETH=0.5"',
    })
    .transform(
      (v) =>
        new Map(
          v === ''
            ? []
            : v.split(',').map((pair) => {
                const [code, limit] = pair.split('=') as [string, string];
                return [code.toUpperCase(), limit] as const;
              }),
        ),
    ),
  /**
   * The HD wallet's mnemonic (deposit addresses and the hot wallet). Production: set it or,
   * better, WALLET_MNEMONIC_FILE (a mounted secret). Embedded mode generates one into
   * DATA_DIR/wallet-mnemonic (0600). The anvil test mnemonic is refused off local chains.
   */
  WALLET_MNEMONIC: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v : undefined)),
  WALLET_MNEMONIC_FILE: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /**
   * The separate signer that alone holds the mnemonic (docs/decisions/039-separate-signer.md):
   * its URL (http://host:port) and the file with the shared HMAC secret (0600, 64 hex
   * characters). Required with EVM_RPC_URL, where the server never reads a mnemonic itself.
   */
  SIGNER_URL: optionalUrl(['http://', 'https://']),
  SIGNER_SECRET_FILE: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /**
   * Embedded mode without SIGNER_URL: `child` starts the signer as a child process (keys in
   * DATA_DIR as before, secret generated); `in-process` keeps the keys in this process (tests).
   */
  SIGNER: z.enum(['child', 'in-process']).default('child'),
  /** `off` runs no chain at all (addresses still derive); `on` connects EVM_RPC_URL or the local chain. */
  CHAIN: z.enum(['on', 'off']).default('on'),
  /** Seconds per block of the embedded local chain. */
  LOCAL_CHAIN_BLOCK_TIME: z.coerce.number().int().min(1).max(60).default(2),
  /** Embedded mode: a second local chain, "L2 (local)" (chain id 31338), beside the first. */
  LOCAL_L2: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /** How often the chain leader looks for new blocks and payouts. */
  CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** The local test faucet (only ever exists on the embedded local chain). */
  FAUCET: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /** How often the chain leader compares chain holdings with what the ledger owes. */
  RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** A withdrawal or sweep not mined after this is replaced with a 10% higher gas price. */
  WITHDRAW_BUMP_AFTER_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** How often the server settles closed activities and pays their prizes (decision 015). */
  ACTIVITY_PAYOUT_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** How often the alert worker looks for conditions operators must hear about (decision 046). */
  ALERT_CHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** A payout waiting (fees above the cap, hot wallet short, node down) longer than this alerts the operators. */
  ALERT_PAYOUT_WAIT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),
  /** A withdrawal in review longer than this alerts the operators. */
  ALERT_REVIEW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(120),
  PRODUCT_NAME: z.string().trim().min(1).max(64).default('Coffer'),
  /**
   * Passkeys (WebAuthn): the relying party ID, the site's host name (no scheme, port or IP
   * address). Unset: HOST when it is a name, else localhost (local use).
   */
  WEBAUTHN_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .regex(HOST_NAME, 'a host name like wallet.example.com (no scheme, port or IP address)')
    .optional(),
  /** Key of the stored authenticator secrets (AES-256-GCM), 64 hex characters. Unset: DATA_DIR/two-factor-key, generated. */
  TWO_FACTOR_KEY: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 random bytes), e.g. `openssl rand -hex 32`')
    .optional(),
  /** Comma-separated origins passkeys are used from. Unset: http://<rp id>:<PORT> for localhost, else https://<rp id>. */
  WEBAUTHN_ORIGIN: z.string().trim().optional(),
  SUPPORT_EMAIL: z.string().trim().email().default('support@coffer.local'),
  /** The oldest app version the server still serves (shown by /api/configs); unset: any. */
  MIN_APP_VERSION: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/)
    .optional(),
});

export type Config = z.infer<typeof envSchema> & {
  dataDir: string;
  webauthn: WebAuthnSettings;
  /** EVM_RPC_URL or EVM_RPC_URLS as one list; empty: embedded mode (the local chains). */
  evmChains: EvmChainSetting[];
  /** UTXO_RPC_URL with its network and account key; null: none configured. */
  utxoNode: UtxoNodeSetting | null;
};

export type { WebAuthnSettings };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // A relative DATA_DIR is taken from where the user ran npm (npm workspaces change the
  // working directory to apps/server), so `npm start` at the root keeps data in ./.coffer.
  const base = env.INIT_CWD ?? process.cwd();
  const fail = (message: string) => new ConfigError(message);
  const chains = evmChains(parsed.data, fail);
  checkWorkers(parsed.data, chains.length, fail);
  checkSigner(parsed.data, chains.length, fail);
  return {
    ...parsed.data,
    evmChains: chains,
    utxoNode: utxoNode(parsed.data, fail),
    dataDir: path.resolve(base, parsed.data.DATA_DIR),
    webauthn: webauthnSettings(parsed.data, fail),
  };
}
