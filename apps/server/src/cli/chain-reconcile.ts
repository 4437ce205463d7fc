import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEvmClient } from '../chain/evm.ts';
import { LOCAL_CHAIN_FILE, type LocalChain, startLocalChain } from '../chain/local-chain.ts';
import { reconcile } from '../chain/reconcile.ts';
import { loadConfig } from '../config.ts';
import { cliKeyring } from './keys.ts';
import { withConfiguredDatabase } from './shared.ts';

/**
 * `npm run chain:reconcile [-- --dry-run] [--json]`: compares what the hot wallet, the cold
 * address and the deposit addresses hold on chain (with what is in transit) with the ledger's
 * custody total, per network, for equality to the last unit (docs/decisions/038), and opens a
 * 'reconcile_drift' incident (payouts frozen) on any difference. There is no tolerance.
 * Exit 0: all ok; 1: drift (or an error); 2: bad arguments.
 *
 * The chain is EVM_RPC_URL. Without it (embedded mode) the local chain is started from
 * DATA_DIR's saved state; that is only possible while the server is stopped, which opening the
 * embedded database already requires.
 */
const USAGE = 'usage: npm run chain:reconcile [-- --dry-run] [--json]';
let values: { 'dry-run': boolean; json: boolean };
try {
  ({ values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  }) as { values: typeof values });
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}

await withConfiguredDatabase(async (database) => {
  const config = loadConfig();
  // Addresses only: the signer's xpub with a chain node (docs/decisions/039-separate-signer.md), else DATA_DIR's mnemonic.
  const wallet = await cliKeyring(config);
  let local: LocalChain | undefined;
  if (config.evmChains.length === 0) {
    if (config.DATABASE_URL) {
      throw new Error('set EVM_RPC_URL: the embedded local chain belongs to the running server and is not reachable from here');
    }
    if (!existsSync(join(config.dataDir, LOCAL_CHAIN_FILE))) {
      throw new Error(`no local chain in ${config.dataDir} (start the server once, or set EVM_RPC_URL)`);
    }
    local = await startLocalChain({ dataDir: config.dataDir, hot: wallet.hotAddress });
  }
  try {
    const client = local?.client ?? createEvmClient(config.evmChains[0]?.url as string);
    const chainId = await client.getChainId();
    if (local) {
      const known = await database.sql.query<{ contract: string | null }>(
        `select n.contract from networks n join currencies c on c.id = n.currency_id where n.chain_id = $1 and c.code = 'USDT'`,
        [chainId],
      );
      if (known[0]?.contract && known[0].contract.toLowerCase() !== local.tokens.USDT.toLowerCase()) {
        throw new Error('the local chain state in DATA_DIR does not match the database (token contracts differ)');
      }
    }
    const data = await reconcile({
      database,
      client,
      wallet,
      chainId,
      openIncidents: !values['dry-run'],
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    if (values.json) {
      console.log(JSON.stringify({ chainId, ...data }, null, 2));
    } else {
      for (const r of data.rows) {
        console.log(
          `${r.ok ? 'ok  ' : 'FAIL'}  ${r.code.padEnd(6)} ${r.networkName} @${r.block}: hot ${r.hot} + cold ${r.cold} + deposit addresses ${r.depositAddresses}` +
            ` + in flight ${r.inFlight} + gas unbooked ${r.gasUnbooked} - inbound ${r.inbound} - owed ${r.owed} (float ${r.float}) = drift ${r.drift}`,
        );
      }
      console.log(
        data.ok
          ? `chain reconcile (chain ${chainId}): all ${data.rows.length} networks ok`
          : `chain reconcile (chain ${chainId}): DRIFT FOUND${values['dry-run'] ? '' : ' (payouts frozen on the drifting networks until an operator resolves the incident)'}`,
      );
    }
    return data.ok ? 0 : 1;
  } finally {
    await local?.stop();
  }
});
