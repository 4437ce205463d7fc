/**
 * Test support for the sender, sweeper and reconcile tests (not a test file itself): a real
 * anvil with the test tokens, a migrated database with the local networks pointing at them,
 * users funded through the ledger, withdrawals applied with the real SQL function.
 */
import { trimDecimal } from '@coffer/contract';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { type Address, createPublicClient, erc20Abi, type Hex, http, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Database } from '../db/client.ts';
import { auditLedger } from '../ledger/audit.ts';
import { createTestDatabase } from '../test/harness.ts';
import { createUser, fund } from '../test/users.ts';
import { HdWallet } from './keys.ts';
import { type LocalChain, startLocalChain } from './local-chain.ts';

export type Code = 'ETH' | 'USDT' | 'USDC';

export interface PayoutEnv {
  wallet: HdWallet;
  hot: ReturnType<HdWallet['hotAccount']>;
  chain: LocalChain;
  database: Database;
  /** network ids of the local chain by currency code */
  nets: Record<Code, number>;
  currencies: Record<Code, number>;
  /** a client that counts JSON-RPC calls (batched ones one by one) */
  client: PublicClient;
  rpcCalls(): number;
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

export async function setupPayoutEnv(): Promise<PayoutEnv> {
  const wallet = new HdWallet(generateMnemonic(wordlist, 128));
  const hot = wallet.hotAccount();
  const [chain, database] = await Promise.all([startLocalChain({ hot: hot.address }), createTestDatabase()]);
  await database.sql.query(
    `update networks n set contract = v.contract from (values ('USDT', $1), ('USDC', $2)) as v(code, contract), currencies c
     where n.chain_id = 31337 and c.id = n.currency_id and c.code = v.code`,
    [chain.tokens.USDT, chain.tokens.USDC],
  );
  const rows = await database.sql.query<{ id: number; code: Code; currency_id: number }>(
    'select n.id, c.code, n.currency_id from networks n join currencies c on c.id = n.currency_id where n.chain_id = 31337',
  );
  const nets = Object.fromEntries(rows.map((r) => [r.code, r.id])) as Record<Code, number>;
  const currencies = Object.fromEntries(rows.map((r) => [r.code, r.currency_id])) as Record<Code, number>;
  let calls = 0;
  const client = createPublicClient({
    transport: http(chain.url, {
      batch: { batchSize: 100 },
      onFetchRequest: (_req, init) => {
        const body = JSON.parse(String(init.body ?? '[]')) as unknown;
        calls += Array.isArray(body) ? body.length : 1;
      },
    }),
    cacheTime: 0,
    pollingInterval: 50,
  }) as PublicClient;
  return {
    wallet,
    hot,
    chain,
    database,
    nets,
    currencies,
    client,
    rpcCalls: () => calls,
    rpc: (method, params = []) => chain.client.request({ method, params } as never) as Promise<unknown>,
    async close() {
      await Promise.all([chain.stop(), database.close()]);
    },
  };
}

export async function newUser(env: PayoutEnv, funds: Partial<Record<Code, string>> = {}): Promise<number> {
  const user = await createUser({ database: env.database });
  for (const [code, amount] of Object.entries(funds)) await fund({ database: env.database }, user.uid, code, amount);
  return user.uid;
}

/**
 * coffer_withdraw_apply, as the API calls it, with a fee quote at the network's minimum fee
 * (these tests are about paying out, not pricing: modules/withdrawals tests the quote); returns the withdrawal id.
 */
export async function applyWithdrawal(env: PayoutEnv, uid: number, code: Code, to: string, amount: string): Promise<number> {
  const [row] = await env.database.sql.query<{ w_id: number }>(
    `with q as (insert into withdrawal_fee_quotes (user_id, network_id, fee, gas_limit, chain_gas_price_wei, gas_price_wei,
                                                  margin_percent, fees_high, expires_at)
                select $1, id, withdraw_fee, 21000, 0, 0, 0, false, now() + interval '1 minute' from networks where id = $2 returning id)
     select a.* from q, coffer_withdraw_apply($1, $2, $3, $4::numeric, null, null, null, q.id) a`,
    [uid, env.nets[code], to, amount],
  );
  return Number(row?.w_id);
}

export interface WithdrawalRow {
  id: number;
  status: string;
  nonce: number | null;
  tx_hash: string | null;
  block_number: number | null;
  reason: string | null;
}

export async function withdrawal(env: PayoutEnv, id: number): Promise<WithdrawalRow> {
  const [row] = await env.database.sql.query<WithdrawalRow>(
    'select id, status, nonce::int as nonce, tx_hash, block_number::int as block_number, reason from withdrawals where id = $1',
    [id],
  );
  if (!row) throw new Error(`no withdrawal ${id}`);
  return row;
}

export async function attemptsOf(env: PayoutEnv, withdrawalId: number) {
  return env.database.sql.query<{ tx_hash: Hex; nonce: number; gas_price: string; status: string; raw_tx: Hex; purpose: string }>(
    'select tx_hash, nonce::int as nonce, gas_price::text as gas_price, status, raw_tx, purpose from chain_txs where withdrawal_id = $1 order by id',
    [withdrawalId],
  );
}

/** available / frozen of a user, and the currency's world / fees, as NUMERIC text. */
export async function balances(env: PayoutEnv, uid: number, code: Code) {
  const rows = await env.database.sql.query<{ kind: string; user_id: number | null; balance: string }>(
    `select kind, user_id, balance::text as balance from accounts
     where currency_id = $1 and (user_id = $2 or (user_id is null and kind in ('world', 'fees')))`,
    [env.currencies[code], uid],
  );
  const exact = (kind: string) => trimDecimal(rows.find((r) => r.kind === kind)?.balance ?? '0');
  return { available: exact('available'), frozen: exact('frozen'), world: exact('world'), fees: exact('fees') };
}

export async function userEvents(env: PayoutEnv, withdrawalId: number): Promise<string[]> {
  const rows = await env.database.sql.query<{ status: string }>(
    `select status from user_events where type = 'withdraw' and ref_id = $1 order by id`,
    [withdrawalId],
  );
  return rows.map((r) => r.status);
}

export const randomAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

export function tokenBalance(env: PayoutEnv, code: 'USDT' | 'USDC', address: Address): Promise<bigint> {
  return env.chain.client.readContract({ address: env.chain.tokens[code], abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}

export async function setAutomine(env: PayoutEnv, on: boolean): Promise<void> {
  await env.rpc('evm_setAutomine', [on]);
}

/** A deposit address for `uid` (as the deposits module allocates it). */
export async function depositAddressFor(env: PayoutEnv, uid: number): Promise<{ address: Address; index: number }> {
  const [{ i }] = (await env.database.sql.query<{ i: number }>("select nextval('deposit_address_index_seq')::int as i")) as [{ i: number }];
  const address = env.wallet.depositAddress(i);
  await env.database.sql.query('insert into deposit_addresses (user_id, chain_id, address_index, address) values ($1, 31337, $2, $3)', [
    uid,
    i,
    address,
  ]);
  return { address, index: i };
}

/**
 * A deposit as the watcher records and credits it: the transfer happened on chain (tx hash,
 * block), the row is inserted pending and credited through coffer_deposit_credit_due.
 */
export async function creditDeposit(
  env: PayoutEnv,
  uid: number,
  code: Code,
  address: Address,
  amount: string,
  txHash: Hex,
  logIndex = -1,
): Promise<number> {
  const receipt = await env.chain.client.waitForTransactionReceipt({ hash: txHash });
  const [row] = await env.database.sql.query<{ id: number }>(
    `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::numeric) returning id`,
    [
      env.nets[code],
      env.currencies[code],
      uid,
      address,
      receipt.from,
      txHash,
      logIndex,
      Number(receipt.blockNumber),
      receipt.blockHash,
      amount,
    ],
  );
  // credit what is due at a height where this deposit has its confirmations (the watcher's call)
  await env.database.sql.query(
    'select * from coffer_deposit_credit_due(31337, $1::bigint + (select confirmations from networks where id = $2) - 1)',
    [Number(receipt.blockNumber), env.nets[code]],
  );
  const [credited] = await env.database.sql.query<{ status: string }>('select status from deposits where id = $1', [Number(row?.id)]);
  if (credited?.status !== 'credited') throw new Error(`deposit ${row?.id} not credited (${credited?.status})`);
  return Number(row?.id);
}

export async function expectAuditOk(database: Database): Promise<void> {
  const report = await auditLedger(database);
  const failed = report.checks.filter((c) => !c.ok);
  if (failed.length > 0) throw new Error(`ledger audit failed: ${JSON.stringify(failed)}`);
}
