import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Hex } from 'viem';
import { createEvmClient } from '../chain/evm.ts';
import { bookFunding, FundingError } from '../chain/funding.ts';
import { LOCAL_CHAIN_FILE, type LocalChain, startLocalChain } from '../chain/local-chain.ts';
import { loadConfig } from '../config.ts';
import { cliKeyring } from './keys.ts';
import { withConfiguredDatabase } from './shared.ts';

/**
 * `npm run chain:fund -- --network <id> --tx <hash> --reason <text>`: books the operator's
 * funding of the hot wallet (or the network's cold address) as the network's float
 * (world -> float, docs/decisions/038), after checking on chain that the transaction paid it
 * (native value, or the token's Transfer logs). Once per transaction: a second run answers the
 * first booking. Audited as 'chain.fund' by cli:<os user>.
 * Exit 0: booked (or already booked); 1: refused or an error; 2: bad arguments.
 */
const USAGE = 'usage: npm run chain:fund -- --network <id> --tx <0x hash> --reason <text>';
let values: { network?: string; tx?: string; reason?: string };
try {
  ({ values } = parseArgs({
    options: { network: { type: 'string' }, tx: { type: 'string' }, reason: { type: 'string' } },
    strict: true,
  }) as { values: typeof values });
  if (!values.network || !/^\d{1,9}$/.test(values.network)) throw new Error('--network must be a network id');
  if (!values.tx || !/^0x[0-9a-fA-F]{64}$/.test(values.tx)) throw new Error('--tx must be a transaction hash (0x + 64 hex digits)');
  const reason = values.reason ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!reason.trim() || /[\u0000-\u001f\u007f]/.test(reason) || reason.length > 500) {
    throw new Error('--reason is required (at most 500 characters, no control characters)');
  }
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}

await withConfiguredDatabase(async (database) => {
  const config = loadConfig();
  const hot = (await cliKeyring(config)).hotAddress;
  let local: LocalChain | undefined;
  if (config.evmChains.length === 0) {
    if (config.DATABASE_URL) throw new Error('set EVM_RPC_URL: the embedded local chain belongs to the running server');
    if (!existsSync(join(config.dataDir, LOCAL_CHAIN_FILE))) throw new Error(`no local chain in ${config.dataDir}`);
    local = await startLocalChain({ dataDir: config.dataDir, hot });
  }
  try {
    const client = local?.client ?? createEvmClient(config.evmChains[0]?.url as string);
    const booked = await bookFunding(database, client, hot, {
      networkId: Number(values.network),
      hash: (values.tx as string).toLowerCase() as Hex,
      reason: (values.reason as string).trim(),
      actor: `cli:${os.userInfo().username}`,
    });
    console.log(
      booked.replayed
        ? `already booked: funding ${booked.id} (entry ${booked.entryId}, ${booked.amount})`
        : `booked: funding ${booked.id} (entry ${booked.entryId}), ${booked.amount} world -> float on network ${values.network}`,
    );
    return 0;
  } catch (e) {
    if (e instanceof FundingError) {
      console.error(`refused: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await local?.stop();
  }
});
