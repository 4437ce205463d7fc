import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createTestDatabase } from '../test/harness.ts';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { ANVIL_TEST_MNEMONIC } from './keys.ts';
import { startChain } from './runtime.ts';

const quiet = { info() {}, warn() {}, error() {} };

/** Production mode: EVM_RPC_URL names the node, the mnemonic comes from configuration. */
describe('chain runtime against a configured RPC node', () => {
  let database: Database;
  let mainnetLike: AnvilInstance;
  let local: AnvilInstance;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-runtime-'));
  const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });

  beforeAll(async () => {
    database = await createTestDatabase();
    [mainnetLike, local] = await Promise.all([startAnvil({ chainId: 1 }), startAnvil({})]);
  });
  afterAll(async () => {
    await Promise.all([mainnetLike.stop(), local.stop(), database.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start without a mnemonic (none is generated outside embedded mode)', async () => {
    await expect(startChain({ config: config({ EVM_RPC_URL: local.url }), database, log: quiet, loop: false })).rejects.toThrow();
    expect(fs.existsSync(path.join(dataDir, 'wallet-mnemonic'))).toBe(false);
  });

  it('refuses the anvil test mnemonic on a chain that is not local', async () => {
    await expect(
      startChain({
        config: config({ EVM_RPC_URL: mainnetLike.url, WALLET_MNEMONIC: ANVIL_TEST_MNEMONIC }),
        database,
        log: quiet,
        loop: false,
      }),
    ).rejects.toThrow(/test mnemonic|local/i);
  });

  it('talks to the configured node with the configured mnemonic, and lists only that chain’s networks', async () => {
    const mnemonic = generateMnemonic(wordlist, 256);
    const file = path.join(dataDir, 'secret-mnemonic');
    fs.writeFileSync(file, `${mnemonic}\n`, { mode: 0o600 });
    const chain = await startChain({
      config: config({ EVM_RPC_URL: mainnetLike.url, WALLET_MNEMONIC_FILE: file }),
      database,
      log: quiet,
      loop: false,
    });
    try {
      expect(chain.live?.url).toBe(mainnetLike.url);
      expect(chain.live?.chainId).toBe(1);
      expect(chain.live?.local).toBeUndefined();
      expect(chain.faucet).toBeUndefined();
      expect(chain.chainIds).toEqual([1]);
      await chain.live!.tick();
      const [cursor] = await database.sql.query<{ chain_id: number }>('select chain_id from chain_cursors');
      expect(cursor?.chain_id).toBe(1);
    } finally {
      await chain.stop();
    }
  });
});
