import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type AdminNetwork, NETWORK_SETTING_KEYS, type NetworkSettingKey, networkUpdateBody } from '@coffer/contract';
import type { PublicClient } from 'viem';
import { createEvmClient } from '../chain/evm.ts';
import { LOCAL_CHAIN_FILE, type LocalChain, startLocalChain } from '../chain/local-chain.ts';
import { type Config, loadConfig } from '../config.ts';
import { listAdminNetworks, updateNetwork } from '../modules/network-admin/index.ts';
import { cliKeyring } from './keys.ts';
import { withConfiguredDatabase } from './shared.ts';

const USAGE = `Change a network's settings (audited, the same checks as the console), or list them.

  npm run network:set -- --network 1 --set confirmations=6 --set min_withdraw=0.01 --reason "..."
  npm run network:set -- --list

Settings (camelCase or snake_case): ${NETWORK_SETTING_KEYS.join(', ')}.
"null" clears an optional one (reviewThreshold, gasPriceCapWei, hotCeiling, hotFloor, coldAddress, contract,
secondApprovalAbove, explorerUrl, explorerTxUrl).
A token contract is asked for decimals() on its chain (EVM_RPC_URL, or the embedded chain in DATA_DIR).
Uses the server's configuration (DATABASE_URL, or PGlite in DATA_DIR: stop the server first).
Exit 0: changed or already so; 1: refused; 2: bad arguments.`;

const INTEGER_KEYS = new Set<NetworkSettingKey>(['tokenDecimals', 'confirmations', 'maxFeeBumps', 'feeMarginPercent']);
const BOOLEAN_KEYS = new Set<NetworkSettingKey>(['depositEnabled', 'withdrawEnabled']);

/** `min_withdraw=0.01` -> ['minWithdraw', '0.01'] typed as the API takes it (the schema judges it). */
export function parseSetting(arg: string): [string, unknown] {
  const eq = arg.indexOf('=');
  if (eq < 1) throw new Error(`--set ${arg}: expected key=value`);
  const key = arg
    .slice(0, eq)
    .trim()
    .replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const raw = arg.slice(eq + 1).trim();
  if (raw === 'null') return [key, null];
  if (INTEGER_KEYS.has(key as NetworkSettingKey) && /^-?\d+$/.test(raw)) return [key, Number(raw)];
  if (BOOLEAN_KEYS.has(key as NetworkSettingKey) && (raw === 'true' || raw === 'false')) return [key, raw === 'true'];
  return [key, raw];
}

let values: { network?: string; set?: string[]; reason?: string; list: boolean; help: boolean };
let body: ReturnType<typeof networkUpdateBody.parse> | undefined;
try {
  ({ values } = parseArgs({
    options: {
      network: { type: 'string' },
      set: { type: 'string', multiple: true },
      reason: { type: 'string' },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  }) as { values: typeof values });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.list) {
    if (!/^[1-9]\d*$/.test(values.network ?? '')) throw new Error('--network must be a network id (see --list)');
    const parsed = networkUpdateBody.safeParse({
      changes: Object.fromEntries((values.set ?? []).map(parseSetting)),
      reason: values.reason,
    });
    if (!parsed.success) {
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('\n'));
    }
    body = parsed.data;
  }
} catch (e) {
  console.error(`${(e as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

const show = (v: unknown) => (v === null ? 'none' : String(v));

/**
 * The hot wallet's address (a cold address must not be it) when a cold address is set, and the
 * chain when a token contract is to be asked for decimals(). The keys (signer or mnemonic) are read only then:
 * any other change needs nothing but the database.
 */
async function chainAccess(config: Config, opts: { needChain: boolean; needHot: boolean }) {
  const embeddedChain =
    opts.needChain && config.evmChains.length === 0 && !config.DATABASE_URL && existsSync(join(config.dataDir, LOCAL_CHAIN_FILE));
  let hotAddress = '';
  if (opts.needHot || embeddedChain) {
    hotAddress = (await cliKeyring(config)).hotAddress;
  }
  let local: LocalChain | undefined;
  let client: PublicClient | undefined;
  const firstNode = config.evmChains[0]?.url;
  if (opts.needChain && firstNode) client = createEvmClient(firstNode);
  else if (embeddedChain) {
    local = await startLocalChain({ dataDir: config.dataDir, hot: hotAddress as `0x${string}` });
    client = local.client;
  }
  const chainId = client ? await client.getChainId() : undefined;
  return { hotAddress, chainId, client, stop: async () => local?.stop() };
}

await withConfiguredDatabase(async (database) => {
  if (values.list || !body) {
    for (const n of await listAdminNetworks(database, [])) printNetwork(n);
    return 0;
  }
  const config = loadConfig();
  const chain = await chainAccess(config, {
    needChain: body.changes.contract !== undefined || body.changes.tokenDecimals !== undefined,
    needHot: typeof body.changes.coldAddress === 'string',
  });
  try {
    const id = Number(values.network);
    const before = (await listAdminNetworks(database, [])).find((n) => n.id === id);
    const after = await updateNetwork(
      database,
      {
        clients: (chainId) => (chainId === chain.chainId ? chain.client : undefined),
        servedChainIds: chain.chainId === undefined ? [] : [chain.chainId],
        hotAddress: chain.hotAddress,
      },
      { actorUserId: null, actor: `cli:${os.userInfo().username}` },
      id,
      body,
    );
    if (!after.changed) console.log(`network ${id} (${after.code} ${after.name}): already so, nothing changed`);
    for (const key of Object.keys(body.changes) as NetworkSettingKey[]) {
      if (before && before[key] !== after[key]) console.log(`${key}: ${show(before[key])} -> ${show(after[key])}`);
    }
    if (after.changed) console.log(`network ${id} (${after.code} ${after.name}) changed; in effect at the next request and chain tick`);
    return 0;
  } finally {
    await chain.stop();
  }
});

function printNetwork(n: AdminNetwork) {
  const settings = NETWORK_SETTING_KEYS.map((k) => `${k}=${show(n[k])}`).join(' ');
  console.log(`#${n.id} ${n.code} ${n.name} (chain ${n.chainId}): ${settings}`);
}
