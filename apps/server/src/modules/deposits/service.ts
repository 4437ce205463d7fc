import type { DepositAddress, DepositListBody, DepositRecord, PageResponse } from '@coffer/contract';
import { ErrorCode } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { formatAmount } from '../../ledger/amounts.ts';
import { networkFor } from '../networks/index.ts';

/** Derives the address of an HD index on a chain (public keys only); a UTXO chain without a node is not served. */
export interface AddressDeriver {
  serves(chainId: number): boolean;
  depositAddress(index: number, chainId: number): string;
}

interface RawAddress {
  address: string;
  created_at: Date | string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * The user's deposit address on the network's chain: allocated once (one HD index per user
 * and chain, all networks of the chain share it) and the same answer every time after.
 */
export async function depositAddressFor(
  database: Database,
  wallet: AddressDeriver,
  userId: number,
  currencyId: number,
  networkId: number,
): Promise<DepositAddress> {
  const net = await networkFor(database, networkId, currencyId);
  if (!wallet.serves(net.chainId)) throw new BizError(ErrorCode.NETWORK_NOT_SERVED, 'networkId');
  if (!net.depositEnabled) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'networkId');
  let [row] = await database.sql.query<RawAddress>(
    'select address, created_at from deposit_addresses where user_id = $1 and chain_id = $2',
    [userId, net.chainId],
  );
  if (!row) {
    // The index comes first so the address can be derived from it; a lost race wastes one
    // index (gaps are harmless) and the winner's row is read back.
    const [{ i }] = (await database.sql.query<{ i: number }>("select nextval('deposit_address_index_seq')::int as i")) as [{ i: number }];
    await database.sql.query(
      `insert into deposit_addresses (user_id, chain_id, address_index, address) values ($1, $2, $3, $4)
       on conflict (user_id, chain_id) do nothing`,
      [userId, net.chainId, i, wallet.depositAddress(i, net.chainId)],
    );
    [row] = await database.sql.query<RawAddress>('select address, created_at from deposit_addresses where user_id = $1 and chain_id = $2', [
      userId,
      net.chainId,
    ]);
  }
  if (!row) throw new Error('deposit address was not stored');
  return {
    currencyId: net.currencyId,
    networkId: net.id,
    code: net.code,
    networkName: net.name,
    address: row.address,
    minDeposit: net.minDeposit,
    confirmations: net.confirmations,
    createdAt: iso(row.created_at),
  };
}

/** Every network for which the user already has an address (one row per network), on the chains served here. */
export async function depositAddressList(
  database: Database,
  wallet: Pick<AddressDeriver, 'serves'>,
  userId: number,
): Promise<DepositAddress[]> {
  const rows = await database.sql.query<{
    chain_id: number;
    currency_id: number;
    network_id: number;
    code: string;
    name: string;
    address: string;
    min_deposit: string;
    confirmations: number;
    created_at: Date | string;
  }>(
    `select n.chain_id, n.currency_id, n.id as network_id, c.code, n.name, a.address, n.min_deposit::text, n.confirmations, a.created_at
     from deposit_addresses a join networks n on n.chain_id = a.chain_id join currencies c on c.id = n.currency_id
     where a.user_id = $1 and n.deposit_enabled order by n.sort, n.id`,
    [userId],
  );
  return rows
    .filter((r) => wallet.serves(r.chain_id))
    .map((r) => ({
      currencyId: r.currency_id,
      networkId: r.network_id,
      code: r.code,
      networkName: r.name,
      address: r.address,
      minDeposit: formatAmount(r.min_deposit),
      confirmations: r.confirmations,
      createdAt: iso(r.created_at),
    }));
}

interface RawDeposit {
  id: number;
  currency_id: number;
  code: string;
  network_id: number;
  network_name: string;
  amount: string;
  address: string;
  from_address: string;
  tx_hash: string;
  log_index: number;
  block_number: number;
  head: number | null;
  required: number;
  status: DepositRecord['status'];
  entry_id: number | string | null;
  created_at: Date | string;
  credited_at: Date | string | null;
  total?: number;
}

const SELECT_DEPOSITS = `
  select d.id, d.currency_id, c.code, d.network_id, n.name as network_name, d.amount::text, d.address, d.from_address,
         d.tx_hash, d.log_index, d.block_number, cur.block_number as head, n.confirmations as required, d.status,
         d.entry_id, d.created_at, d.credited_at
  from deposits d join networks n on n.id = d.network_id join currencies c on c.id = d.currency_id
  left join chain_cursors cur on cur.chain_id = n.chain_id`;

/** Confirmations as the watcher last saw them: head - block + 1, capped at what is needed. */
export function confirmationsOf(status: string, block: number, head: number | null, required: number): number {
  if (status === 'credited' || status === 'completed') return required;
  if (head === null || block <= 0 || head < block) return 0;
  return Math.min(required, head - block + 1);
}

function toRecord(r: RawDeposit): DepositRecord {
  return {
    id: r.id,
    currencyId: r.currency_id,
    code: r.code,
    networkId: r.network_id,
    networkName: r.network_name,
    amount: formatAmount(r.amount),
    address: r.address,
    fromAddress: r.from_address,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    blockNumber: r.block_number,
    confirmations: r.status === 'dropped' || r.status === 'unconfirmed' ? 0 : confirmationsOf(r.status, r.block_number, r.head, r.required),
    confirmationsRequired: r.required,
    status: r.status,
    // The credit entry: the number its statement line and CSV row carry.
    reference: r.entry_id === null ? null : Number(r.entry_id),
    createdAt: iso(r.created_at),
    creditedAt: r.credited_at === null ? null : iso(r.credited_at),
  };
}

export async function depositPage(database: Database, userId: number, body: DepositListBody): Promise<PageResponse<DepositRecord>> {
  const { page, pageSize, currencyId, status, statuses } = body;
  const where =
    'where d.user_id = $1 and ($2::int is null or d.currency_id = $2) and ($3::text is null or d.status = $3)' +
    ' and ($4::text[] is null or d.status = any($4::text[]))';
  const params = [userId, currencyId ?? null, status ?? null, statuses ?? null];
  const [rows, count] = await Promise.all([
    database.sql.query<RawDeposit>(`${SELECT_DEPOSITS} ${where} order by d.id desc limit $5 offset $6`, [
      ...params,
      pageSize,
      (page - 1) * pageSize,
    ]),
    database.sql.query<{ n: number }>(`select count(*)::int as n from deposits d ${where}`, params),
  ]);
  return { list: rows.map(toRecord), total: count[0]?.n ?? 0, page, pageSize };
}

/** One of the user's deposits; another user's id answers 4004 like a missing one. */
export async function depositInfo(database: Database, userId: number, id: number): Promise<DepositRecord> {
  const [row] = await database.sql.query<RawDeposit>(`${SELECT_DEPOSITS} where d.id = $1 and d.user_id = $2`, [id, userId]);
  if (!row) throw notFound();
  return toRecord(row);
}
