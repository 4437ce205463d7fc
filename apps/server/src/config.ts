import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AMOUNT_RE, isAmountWithinLimits } from '@coffer/contract/rules';
import { z } from 'zod';
import { HOST_NAME, type WebAuthnSettings, webauthnSettings } from './config-webauthn.ts';
import { checkSigner, checkWorkers, type EvmChainSetting, evmChains, parseEvmRpcUrls } from './config-chains.ts';
import { UTXO_NETWORK_NAMES, type UtxoNodeSetting, utxoNode } from './config-utxo.ts';
import { parseTrustProxy } from './config-proxy.ts';

export { fastifyTrustProxy } from './config-proxy.ts';

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

/** Every setting comes from the environment (docs/product.md §11); names are part of the product. */
export const envSchema = z.object({
  /** HTTP port of the API, the web app and the console. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Bind address. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Prometheus metrics at GET /metrics on a port of their own, bound to HOST, no session (firewall
   * it); worker n of WORKERS uses METRICS_PORT + n - 1. Unset: off. Operators also read them at
   * /api/admin/metrics (decision 024).
   */
  METRICS_PORT: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
  /** Embedded database (PGlite, locked against a second process), saved mail, generated secrets. */
  DATA_DIR: z.string().min(1).default('./.coffer'),
  /** PostgreSQL, e.g. postgres://user@host:5432/coffer; unset: the embedded PGlite in DATA_DIR. */
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  /**
   * PostgreSQL connections per process, besides at most 4 that the transfer and swap writers hold
   * while busy (their pipelined connections, decision 030).
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * API processes sharing the port (node cluster), each with its own pool of
   * DATABASE_POOL_SIZE connections; a dead one is started again. More than 1 needs DATABASE_URL
   * and EVM_RPC_URL (or CHAIN=off): the embedded database and local chain serve one process. The
   * chain work and the periodic jobs run in one process per database (advisory-lock leaders).
   */
  WORKERS: z.coerce.number().int().min(1).max(MAX_WORKERS).default(1),
  /**
   * Transfer batches one process may have in flight on PostgreSQL (PGlite: always 1). They are
   * pipelined on the writer's one connection: the next starts as the one before commits, with
   * no round trip between (decision 030). Measured on 2 cores at 16 clients: 2 about 7% ahead
   * of 1; more only queue more on the server.
   */
  TRANSFER_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(MAX_TRANSFER_BATCHES_IN_FLIGHT).default(2),
  /** Mail server, e.g. smtp://127.0.0.1:2525; unset: mail is printed to the log and saved as JSON in DATA_DIR/mail. */
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  /** Sender of mails. */
  MAIL_FROM: z.string().min(3).default('Coffer <no-reply@coffer.local>'),
  /** One EVM chain's RPC endpoint (its chain id is read from the node); unset (and no EVM_RPC_URLS): the local chains. */
  EVM_RPC_URL: optionalUrl(['http://', 'https://', 'ws://', 'wss://']),
  /**
   * Several EVM chains, comma-separated chainId=url pairs ("1=https://eth.example,42161=https://arb.example");
   * each node must answer its chain id (checked at start); the first is the main chain. Not
   * together with EVM_RPC_URL (decision 050).
   */
  EVM_RPC_URLS: z.string().trim().default('').transform(parseEvmRpcUrls),
  /**
   * A Bitcoin Core or Litecoin Core node's JSON-RPC, credentials in the URL:
   * "http://user:pass@host:9332" (decision 048). The node needs txindex=1 (payouts read their
   * transactions by id) and, for Litecoin Core, mempoolreplacement=1 (replace-by-fee).
   */
  UTXO_RPC_URL: optionalUrl(['http://', 'https://']),
  /** Required with UTXO_RPC_URL: the network it runs (checked against the node at start). */
  UTXO_NETWORK: z.enum(UTXO_NETWORK_NAMES as [string, ...string[]]).optional(),
  /**
   * Required with UTXO_RPC_URL: the BIP-84 account public key (m/84'/coin'/0', xpub/zpub, tpub/vpub
   * on test networks) deposits derive from; the server holds no UTXO private key. Payouts run only
   * when the signer's policy lists the chain (utxoChains) with this key (decision 051).
   */
  UTXO_ACCOUNT_XPUB: z.string().trim().optional(),
  /** Embedded mode without UTXO_RPC_URL: a local Litecoin regtest node (DATA_DIR/litecoin-regtest) when litecoind is on the PATH. */
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
  /** Log level of the server's JSON log. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The built phone web app, served with history fallback. */
  WEB_DIST_DIR: z.string().default(path.resolve(serverRoot, '../web/dist')),
  /** The operator console's build, served at /console/ (absent: /console answers 404). */
  CONSOLE_DIST_DIR: z.string().min(1).default(path.resolve(serverRoot, '../console/dist')),
  /** A user's sign-in lifetime. */
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
   * OPERATOR_IDLE_MINUTES without a request (5 min to 24 h); decision 045. Operators also need
   * a second factor (authenticator or passkey) for every console action.
   */
  OPERATOR_SESSION_HOURS: z.coerce.number().int().min(1).max(168).default(8),
  /** An operator's session ends after this long without a request. */
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
  /** Per-IP and per-account rate limits; off only for load tests and tests that need many calls from one address. */
  RATE_LIMIT: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /**
   * Which peers may say who the client is (X-Forwarded-For): false (none), the number of
   * proxies in front (a hop count, only when the server is reachable through them alone) or
   * their addresses and CIDRs, e.g. 10.0.0.0/8,127.0.0.1 (client IP: the right-most
   * X-Forwarded-For entry not in the list). true is refused: it let clients choose their IP.
   */
  TRUST_PROXY: z.string().trim().default('false').transform(parseTrustProxy),
  /**
   * on: Web Push subscriptions may name plain-http and local endpoints (tests with a local push
   * service); off, only https to a named host, so a user cannot make the server post inward
   * (decision 054). The VAPID key pair is generated into DATA_DIR/vapid-keys (0600).
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
  /** Swap prices from an external JSON feed {"updatedAt", "prices": {"ETH": "3012.5"}}; unset: the operator's swap_pairs table. */
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
   * Embedded mode only (refused with EVM_RPC_URL(S), where the signer holds it): the HD wallet's
   * mnemonic (deposit addresses and the hot wallet), handed to the signer child. Unset, it is
   * generated into DATA_DIR/wallet-mnemonic (0600). The anvil test mnemonic is refused off local chains.
   */
  WALLET_MNEMONIC: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v : undefined)),
  /** Embedded mode only: a file holding the HD wallet's mnemonic, handed to the signer child (refused with EVM_RPC_URL). */
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
  /** The 0600 file with the shared HMAC secret of the channel to SIGNER_URL (64 hex characters). */
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
  /** Seconds per block of the embedded anvil chain. */
  LOCAL_CHAIN_BLOCK_TIME: z.coerce.number().int().min(1).max(60).default(2),
  /** Embedded mode: a second local chain, "L2 (local)" (chain id 31338, 1 s blocks), with its own ETH, USDT and USDC networks. */
  LOCAL_L2: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /** How often the chain leader looks for new blocks and payouts. */
  CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** The local test faucet on /charge (only ever exists on the embedded local chain). */
  FAUCET: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /** How often the chain leader compares chain holdings with what the ledger owes. */
  RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** A withdrawal or sweep not mined after this is re-signed (same nonce) at a 10% higher gas price. */
  WITHDRAW_BUMP_AFTER_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** How often each server process settles closed activities and pays their prizes (safe in several processes; decision 015). */
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
  /** The product's name, answered by /api/configs. */
  PRODUCT_NAME: z.string().trim().min(1).max(64).default('Coffer'),
  /**
   * Passkeys (WebAuthn): the relying party ID, the site's host name (no scheme, port or IP
   * address; browsers refuse IPs). Unset: HOST when it is a name, else localhost: open the app on
   * http://localhost:8080, not 127.0.0.1, to use passkeys locally.
   */
  WEBAUTHN_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .regex(HOST_NAME, 'a host name like wallet.example.com (no scheme, port or IP address)')
    .optional(),
  /**
   * Key of the stored authenticator secrets (AES-256-GCM), 64 hex characters (openssl rand -hex 32).
   * Unset: generated into DATA_DIR/two-factor-key (0600). API hosts sharing a database set the same one.
   */
  TWO_FACTOR_KEY: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 random bytes), e.g. `openssl rand -hex 32`')
    .optional(),
  /**
   * Comma-separated origins passkeys are used from, each https (http only on localhost) on the RP
   * ID or a subdomain of it. Unset: http://<rp id>:<PORT> for localhost, else https://<rp id>.
   */
  WEBAUTHN_ORIGIN: z.string().trim().optional(),
  /** The support address, answered by /api/configs. */
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
