import type {
  AddressBookAddBody,
  AddressBookData,
  AddressBookEntry,
  AddressCheckBody,
  AddressCheckData,
  AddressProblem,
  AddressWarning,
} from '@coffer/contract';
import { ADDRESS_BOOK_MAX_ENTRIES, ErrorCode } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import type { MailingDeps } from '../../core/deps.ts';
import type { Database } from '../../db/client.ts';
import { timeLeft } from '../holds/index.ts';
import { networkFor } from '../networks/index.ts';
import { notifySecurityEvent } from '../security/index.ts';
import { requireSecondFactor, twoFactorEnabled } from '../two-factor/index.ts';
import { type AddressRules, judgeDestination, payableDestination } from './destination.ts';
import { lookalikeOf } from './lookalike.ts';

const UNIQUE_VIOLATION = '23505';
/** Past destinations compared for lookalikes: the user's most recent withdrawals. */
const LOOKALIKE_HISTORY = 200;

export type BookDeps = MailingDeps & { config: { ADDRESS_BOOK_DELAY_HOURS: number } };

interface RawEntry {
  id: number;
  network_id: number;
  network_name: string;
  code: string;
  address: string;
  label: string;
  created_at: Date | string;
  usable_at: Date | string;
  seconds_left: number;
}

const SELECT_ENTRIES = `
  select b.id, b.network_id, n.name as network_name, c.code, b.address, b.label, b.created_at, b.usable_at,
         greatest(ceil(extract(epoch from b.usable_at - now())), 0)::int as seconds_left
  from address_book b join networks n on n.id = b.network_id join currencies c on c.id = n.currency_id`;

function toEntry(r: RawEntry): AddressBookEntry {
  return {
    id: r.id,
    networkId: r.network_id,
    networkName: r.network_name,
    code: r.code,
    address: r.address,
    label: r.label,
    createdAt: new Date(r.created_at).toISOString(),
    usableAt: new Date(r.usable_at).toISOString(),
    usable: Number(r.seconds_left) === 0,
    secondsLeft: Number(r.seconds_left),
  };
}

async function whitelistOnly(database: Database, userId: number): Promise<boolean> {
  const [row] = await database.sql.query<{ on: boolean }>('select withdraw_whitelist_only as on from users where id = $1', [userId]);
  return row?.on === true;
}

export async function listBook(database: Database, userId: number, delayHours: number, networkId?: number): Promise<AddressBookData> {
  const rows = await database.sql.query<RawEntry>(
    `${SELECT_ENTRIES} where b.user_id = $1 and ($2::int is null or b.network_id = $2) order by b.label, b.id`,
    [userId, networkId ?? null],
  );
  return { list: rows.map(toEntry), whitelistOnly: await whitelistOnly(database, userId), delayHours };
}

async function entryFor(database: Database, userId: number, networkId: number, address: string): Promise<AddressBookEntry | null> {
  const [row] = await database.sql.query<RawEntry>(
    `${SELECT_ENTRIES} where b.user_id = $1 and b.network_id = $2 and lower(b.address) = lower($3)`,
    [userId, networkId, address],
  );
  return row ? toEntry(row) : null;
}

/**
 * Adds a destination. It may be paid after ADDRESS_BOOK_DELAY_HOURS, or at once when the
 * request carries a right second factor (a stolen session alone cannot add a usable one).
 * The owner is mailed either way.
 */
export async function addEntry(deps: BookDeps, rules: AddressRules, userId: number, body: AddressBookAddBody): Promise<AddressBookEntry> {
  const { database } = deps;
  const net = await networkFor(database, body.networkId);
  const address = await payableDestination(database, rules, net, body.address);
  const [count] = await database.sql.query<{ n: number }>('select count(*)::int as n from address_book where user_id = $1', [userId]);
  if ((count?.n ?? 0) >= ADDRESS_BOOK_MAX_ENTRIES) throw new BizError(ErrorCode.LIMIT_EXCEEDED, `${ADDRESS_BOOK_MAX_ENTRIES}`);
  let verified = false;
  if (body.totp && (await twoFactorEnabled(database, userId))) {
    await requireSecondFactor(database, userId, body.totp); // 2007 when wrong
    verified = true;
  }
  const delayHours = verified ? 0 : deps.config.ADDRESS_BOOK_DELAY_HOURS;
  let id: number;
  try {
    const [row] = await database.sql.query<{ id: number }>(
      `insert into address_book (user_id, network_id, address, label, usable_at)
       values ($1, $2, $3, $4, now() + make_interval(hours => $5)) returning id`,
      [userId, net.id, address, body.label, delayHours],
    );
    id = row!.id;
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION) throw new BizError(ErrorCode.ADDRESS_ALREADY_IN_BOOK);
    throw e;
  }
  const entry = (await entryFor(database, userId, net.id, address))!;
  void notifySecurityEvent(deps, userId, 'address_book_added', {}, undefined, {
    book: { label: entry.label, address: entry.address, network: net.name, usableAt: new Date(entry.usableAt) },
  });
  return { ...entry, id };
}

export async function removeEntry(deps: BookDeps, userId: number, id: number): Promise<void> {
  const [gone] = await deps.database.sql.query<RawEntry>(
    `with gone as (delete from address_book where id = $1 and user_id = $2 returning *)
     select g.id, g.network_id, n.name as network_name, g.address, g.label from gone g join networks n on n.id = g.network_id`,
    [id, userId],
  );
  if (!gone) throw notFound();
  void notifySecurityEvent(deps, userId, 'address_book_removed', {}, undefined, {
    book: { label: gone.label, address: gone.address, network: gone.network_name },
  });
}

/** Turns "whitelist only" on (no factor needed) or off (the second factor when the user has one). */
export async function setWhitelistOnly(database: Database, userId: number, enabled: boolean, totp: string | undefined): Promise<void> {
  if (!enabled && (await whitelistOnly(database, userId))) await requireSecondFactor(database, userId, totp);
  await database.sql.query('update users set withdraw_whitelist_only = $2, updated_at = now() where id = $1', [userId, enabled]);
}

/** Refuses a withdrawal the book does not allow: 3015 an entry still waiting, 3016 outside the book in whitelist-only mode. */
export async function assertBookAllows(database: Database, userId: number, networkId: number, address: string): Promise<void> {
  const problem = await bookProblem(database, userId, networkId, address);
  if (problem?.kind === 'not_yet_usable') {
    const left = timeLeft(problem.secondsLeft);
    throw new BizError(ErrorCode.ADDRESS_NOT_YET_USABLE, { 'zh-CN': `剩余 ${left['zh-CN']}`, 'en-US': `${left['en-US']} left` });
  }
  if (problem?.kind === 'not_in_book') throw new BizError(ErrorCode.ADDRESS_NOT_IN_BOOK);
}

async function bookProblem(
  database: Database,
  userId: number,
  networkId: number,
  address: string,
): Promise<{ kind: 'not_yet_usable' | 'not_in_book'; secondsLeft: number; entry: AddressBookEntry | null } | null> {
  const entry = await entryFor(database, userId, networkId, address);
  if (entry && !entry.usable) return { kind: 'not_yet_usable', secondsLeft: entry.secondsLeft, entry };
  if (!entry && (await whitelistOnly(database, userId))) return { kind: 'not_in_book', secondsLeft: 0, entry };
  return null;
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Everything /withdraw says under the address field while it is typed. */
export async function checkDestination(
  database: Database,
  rules: AddressRules,
  userId: number,
  body: AddressCheckBody,
): Promise<AddressCheckData> {
  const net = await networkFor(database, body.networkId);
  const typed = body.address.trim();
  const judged = await judgeDestination(database, rules, net, typed);
  const none = { warnings: [] as AddressWarning[], resembles: null, entry: null };
  if (!judged.address) {
    return { address: null, problem: judged.problem === 'invalid' && HEX_ADDRESS.test(typed) ? 'checksum' : 'format', ...none };
  }
  const address = judged.address;
  const entry = await entryFor(database, userId, net.id, address);
  let problem: AddressProblem | null =
    judged.problem === 'invalid' || judged.problem === 'other_network' || judged.problem === 'other_family' ? 'format' : judged.problem;
  if (!problem) problem = (await bookProblem(database, userId, net.id, address))?.kind ?? null;

  const warnings: AddressWarning[] = [];
  const own = await database.sql.query(
    'select 1 from deposit_addresses where user_id = $1 and chain_id = $2 and lower(address) = lower($3)',
    [userId, net.chainId, address],
  );
  if (own.length > 0) warnings.push('own_deposit');
  const resembles = entry ? null : lookalikeOf(address, await knownDestinations(database, userId));
  if (resembles) warnings.push('lookalike');
  return { address, problem, warnings, resembles, entry };
}

/** The user's past withdrawal destinations and book entries (any network), newest first. */
async function knownDestinations(database: Database, userId: number): Promise<string[]> {
  const rows = await database.sql.query<{ address: string }>(
    `select address from (select address, created_at from withdrawals where user_id = $1 order by id desc limit $2) w
     union select address from address_book where user_id = $1`,
    [userId, LOOKALIKE_HISTORY],
  );
  return rows.map((r) => r.address);
}
