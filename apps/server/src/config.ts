import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

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

/** Every setting comes from the environment (DESIGN §4); names are part of the product. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.coffer'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  MAIL_FROM: z.string().min(3).default('Coffer <no-reply@coffer.local>'),
  EVM_RPC_URL: optionalUrl(['http://', 'https://', 'ws://', 'wss://']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().default(path.resolve(serverRoot, '../web/dist')),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 7),
  /** Comma-separated e-mails that get the operator role when they register. */
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
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
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
   * How much of each currency the house (swap counterparty) may owe, applied at start:
   * "USDT=1000000,ETH=500". Currencies not listed keep the limit an operator set.
   */
  HOUSE_LIMITS: z
    .string()
    .trim()
    .default('USDT=1000000,USDC=1000000,ETH=500,BTC=25')
    .refine((v) => v === '' || /^[A-Za-z0-9]{1,16}=\d{1,20}(\.\d{1,18})?(,[A-Za-z0-9]{1,16}=\d{1,20}(\.\d{1,18})?)*$/.test(v), {
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
  /** `off` runs no chain at all (addresses still derive); `on` connects EVM_RPC_URL or the local chain. */
  CHAIN: z.enum(['on', 'off']).default('on'),
  /** Seconds per block of the embedded local chain. */
  LOCAL_CHAIN_BLOCK_TIME: z.coerce.number().int().min(1).max(60).default(2),
  /** How often the chain leader looks for new blocks and payouts. */
  CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** The local test faucet (only ever exists on the embedded local chain). */
  FAUCET: z
    .enum(['on', 'off'])
    .default('on')
    .transform((v) => v === 'on'),
  /** How often the chain leader compares chain holdings with what the ledger owes. */
  RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** A shortfall beyond this (in the currency's unit) freezes the network's payouts. */
  RECONCILE_TOLERANCE: z
    .string()
    .trim()
    .regex(/^\d{1,20}(\.\d{1,18})?$/, 'must be a decimal like "0" or "0.01"')
    .default('0'),
  /** A withdrawal or sweep not mined after this is replaced with a 10% higher gas price. */
  WITHDRAW_BUMP_AFTER_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  PRODUCT_NAME: z.string().trim().min(1).max(64).default('Coffer'),
  SUPPORT_EMAIL: z.string().trim().email().default('support@coffer.local'),
  /** The oldest app version the server still serves (shown by /api/configs); unset: any. */
  MIN_APP_VERSION: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/)
    .optional(),
});

export type Config = z.infer<typeof envSchema> & { dataDir: string };

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
  return { ...parsed.data, dataDir: path.resolve(base, parsed.data.DATA_DIR) };
}
