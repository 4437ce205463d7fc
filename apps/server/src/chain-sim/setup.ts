import { formatUnits, keccak256, type LocalAccount, parseEther, parseUnits, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EvmChainAdapter } from '../chain/evm.ts';
import { HdWallet } from '../chain/keys.ts';
import { payoutWorkers } from '../chain/payouts.ts';
import { type ChainLog, silentChainLog } from '../chain/txs.ts';
import { DepositWatcher } from '../chain/watcher.ts';
import { type Database, migrateDatabase, openPglite, openPostgres } from '../db/client.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import { createUser } from '../test/users.ts';
import type { Prng } from '../sim/prng.ts';
import { SimChain } from './chain.ts';
import type { CheckEnv } from './checks.ts';
import { ChainFaults } from './faults.ts';
import { type PlantedBug, plant } from './planted.ts';
import { SimRpc } from './rpc.ts';
import { type Addr, mint } from './world.ts';

/** The local chain's id: the seeded networks (migration 0011) are on it. */
export const SIM_CHAIN_ID = 31337;
/** The test token's address on the double (any address: the double knows it as a token). */
export const SIM_USDT = '0x5eed00000000000000000000000000000000a0a0' as Addr;
/** anvil's well-known test mnemonic: a fixed wallet, so a seed replays the same transactions. */
const SIM_MNEMONIC = 'test test test test test test test test test test test junk';
/** The depositors' wallet (outside custody: not derived from the wallet's mnemonic). */
const DEPOSITOR_KEY = keccak256(toHex('coffer chain simulator depositor'));
const HOT_FLOAT = { ETH: parseEther('1000'), USDT: parseUnits('1000000', 6) };

export interface SimWorker {
  name: string;
  tick(): Promise<unknown>;
}

export interface SimUser {
  uid: number;
  address: Addr;
}

export interface SimEnv extends CheckEnv {
  rpc: SimRpc;
  depositorAccount: LocalAccount;
  workers: SimWorker[];
  users: SimUser[];
  nets: { ETH: number; USDT: number };
  currencies: { ETH: number; USDT: number };
  close(): Promise<void>;
}

/** A fresh database: PGlite in memory, or a new database on the PostgreSQL server of `databaseUrl` (dropped on close). */
export async function openSimDatabase(databaseUrl?: string): Promise<Database> {
  if (!databaseUrl) {
    const db = await openPglite();
    await migrateDatabase(db);
    return db;
  }
  const scratch = await createScratchDatabase(databaseUrl, 'coffer_chainsim');
  const db = await openPostgres(scratch.url, 10);
  await migrateDatabase(db);
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}

/**
 * The chain double, its faults, and the real watcher and payout workers over `database`,
 * built as startChain builds them (payoutWorkers with a reconcile every tick and the bump
 * interval at 0: one simulated step is longer than any interval, so the time-based
 * decisions are taken on every tick, whatever the wall clock says).
 */
export async function setupSimEnv(opts: {
  database: Database;
  faultPrng: Prng;
  users: number;
  planted?: PlantedBug;
  log?: ChainLog;
}): Promise<SimEnv> {
  const { database } = opts;
  const log = opts.log ?? silentChainLog;
  const wallet = new HdWallet(SIM_MNEMONIC);
  const hotAccount = wallet.hotAccount();
  const hot = hotAccount.address.toLowerCase() as Addr;
  const depositorAccount = privateKeyToAccount(DEPOSITOR_KEY);
  const depositor = depositorAccount.address.toLowerCase() as Addr;
  const chain = new SimChain({
    chainId: SIM_CHAIN_ID,
    tokens: [SIM_USDT],
    genesis: (s) => {
      mint(s, hot, HOT_FLOAT.ETH, { contract: SIM_USDT, amount: HOT_FLOAT.USDT });
      mint(s, depositor, parseEther('1000000'), { contract: SIM_USDT, amount: parseUnits('1000000000', 6) });
    },
  });
  const custody = new Set<Addr>([hot]);
  const faults = new ChainFaults(chain, opts.faultPrng, hotAccount, (tx) => custody.has(tx.from));
  const rpc = new SimRpc(chain, faults, new Map([[SIM_USDT, 6]]));
  const client = rpc.client();

  const { nets, currencies } = await pointNetworks(database);
  // the genesis float is the operator's funding, booked as on a real chain (docs/decisions/038)
  for (const [net, amount, decimals] of [
    [nets.ETH, HOT_FLOAT.ETH, 18],
    [nets.USDT, HOT_FLOAT.USDT, 6],
  ] as const) {
    await database.sql.query(`select * from coffer_float_fund($1, $2, $3::numeric, 'simulated genesis funding', 'system:sim', null)`, [
      net,
      `0x${net.toString(16).padStart(64, '0')}`,
      formatUnits(amount, decimals),
    ]);
  }

  const adapter = new EvmChainAdapter({ client, xpub: wallet.xpub });
  const watcher = new DepositWatcher(database, adapter, SIM_CHAIN_ID, { log });
  const payouts = payoutWorkers(
    { database, adapter, wallet, chainId: SIM_CHAIN_ID, log },
    { reconcileEveryMs: 0, sender: { bumpAfterMs: 0 }, sweeper: { bumpAfterMs: 0 } },
  );
  const workers = plant(opts.planted, [{ name: 'watcher', tick: () => watcher.tick() }, ...payouts], database, SIM_CHAIN_ID);

  const users = await createUsers(database, wallet, opts.users, custody);

  return {
    database,
    chain,
    faults,
    wallet,
    client: new SimRpc(chain, {}, new Map([[SIM_USDT, 6]])).client(),
    chainId: SIM_CHAIN_ID,
    hot,
    depositor,
    custody,
    assets: new Map([
      [nets.ETH, { contract: null, decimals: 18 }],
      [nets.USDT, { contract: SIM_USDT, decimals: 6 }],
    ]),
    float: new Map([
      [nets.ETH, HOT_FLOAT.ETH],
      [nets.USDT, HOT_FLOAT.USDT],
    ]),
    rpc,
    depositorAccount,
    workers,
    users,
    nets,
    currencies,
    close: () => database.close(),
  };
}

/** The local networks on the double: USDT at the double's token, USDC switched off (no contract). */
async function pointNetworks(database: Database) {
  await database.sql.query(
    `update networks n set contract = case when c.code = 'USDT' then $1 else null end from currencies c
     where n.chain_id = $2 and c.id = n.currency_id and not n.native`,
    [SIM_USDT, SIM_CHAIN_ID],
  );
  const rows = await database.sql.query<{ id: number; code: string; currency_id: number }>(
    `select n.id, c.code, n.currency_id from networks n join currencies c on c.id = n.currency_id
     where n.chain_id = $1 and c.code in ('ETH', 'USDT')`,
    [SIM_CHAIN_ID],
  );
  const net = (code: string) => rows.find((r) => r.code === code) as { id: number; currency_id: number };
  return {
    nets: { ETH: net('ETH').id, USDT: net('USDT').id },
    currencies: { ETH: net('ETH').currency_id, USDT: net('USDT').currency_id },
  };
}

/** Users with a deposit address each (HD indexes 0..n-1, as the deposits module allocates them). */
async function createUsers(database: Database, wallet: HdWallet, n: number, custody: Set<Addr>): Promise<SimUser[]> {
  const users: SimUser[] = [];
  for (let i = 0; i < n; i++) {
    const user = await createUser({ database }, { email: `chain-sim-${i}@test.coffer` });
    const address = wallet.depositAddress(i);
    await database.sql.query('insert into deposit_addresses (user_id, chain_id, address_index, address) values ($1, $2, $3, $4)', [
      user.uid,
      SIM_CHAIN_ID,
      i,
      address,
    ]);
    custody.add(address.toLowerCase() as Addr);
    users.push({ uid: user.uid, address: address.toLowerCase() as Addr });
  }
  // the index sequence must not hand these indexes out again
  await database.sql.query(`select setval('deposit_address_index_seq', $1)`, [n + 1]);
  return users;
}
