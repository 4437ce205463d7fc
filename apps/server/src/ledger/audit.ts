import type { AuditReport } from '@coffer/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

const SAMPLE = 5;

/**
 * Business tables whose rows each stand for one journal entry of a kind: an entry of that
 * kind must have exactly one row there. Tables added by other modules (swaps) are checked
 * once they exist; every other table with an `entry_id` column is checked generically.
 */
const BUSINESS_KINDS: { table: string; kind: string }[] = [
  { table: 'transfers', kind: 'transfer' },
  { table: 'adjustments', kind: 'adjustment' },
  { table: 'swaps', kind: 'swap' },
  { table: 'deposits', kind: 'deposit' },
  { table: 'withdrawal_entries', kind: 'withdraw_hold' },
  { table: 'withdrawal_entries', kind: 'withdraw_settle' },
  { table: 'withdrawal_entries', kind: 'withdraw_refund' },
  { table: 'activity_fundings', kind: 'activity_fund' },
  { table: 'activity_winners', kind: 'activity_prize' },
  { table: 'chain_fundings', kind: 'float_fund' },
  { table: 'chain_gas', kind: 'gas' },
  { table: 'utxo_fees', kind: 'miner_fee' },
  { table: 'deposit_unclaimed', kind: 'unclaimed_deposit' },
];

interface Check {
  name: string;
  /** Selects one row per violation (numbers as text, so samples stay exact). */
  query: string;
}

const STATIC_CHECKS: Check[] = [
  {
    name: 'currency_sums_to_zero',
    query: `select currency_id, sum(balance)::text as total from accounts group by currency_id having sum(balance) <> 0`,
  },
  {
    name: 'balance_equals_sum_of_postings',
    query: `select a.id as account_id, a.balance::text as balance, coalesce(p.total, 0)::text as postings_total
      from accounts a left join (select account_id, sum(amount) as total from postings group by account_id) p on p.account_id = a.id
      where a.balance <> coalesce(p.total, 0)`,
  },
  {
    name: 'balance_equals_latest_balance_after',
    query: `select a.id as account_id, a.balance::text as balance, l.balance_after::text as latest_balance_after
      from accounts a join (select distinct on (account_id) account_id, balance_after from postings order by account_id, id desc) l
        on l.account_id = a.id
      where a.balance <> l.balance_after`,
  },
  {
    name: 'posting_balance_after_chain',
    query: `select id as posting_id, account_id, amount::text as amount, balance_after::text as balance_after,
        prev_after::text as previous_balance_after
      from (select id, account_id, amount, balance_after,
              coalesce(lag(balance_after) over (partition by account_id order by id), 0) as prev_after
            from postings) x
      where balance_after <> prev_after + amount`,
  },
  {
    name: 'user_accounts_not_negative',
    query: `select id as account_id, user_id, kind, balance::text as balance from accounts where user_id is not null and balance < 0`,
  },
  {
    name: 'accounts_within_floor',
    query: `select id as account_id, kind, balance::text as balance, min_balance::text as min_balance
      from accounts where min_balance is not null and balance < min_balance`,
  },
  {
    name: 'entry_balanced_per_currency',
    query: `select entry_id, currency_id, sum(amount)::text as total from postings group by entry_id, currency_id having sum(amount) <> 0`,
  },
  {
    name: 'entry_has_two_postings',
    query: `select e.id as entry_id, e.kind, count(p.id) as postings
      from journal_entries e left join postings p on p.entry_id = e.id where e.refusal is null
      group by e.id, e.kind having count(p.id) < 2`,
  },
  {
    // A refused request kept under its Idempotency-Key (decision 012): the key's answer, no money.
    name: 'refused_entry_moves_nothing',
    query: `select e.id as entry_id, e.kind, e.refusal, e.idempotency_key is not null as has_key,
        (select count(*) from postings p where p.entry_id = e.id) as postings
      from journal_entries e
      where e.refusal is not null and (e.idempotency_key is null or exists (select 1 from postings p where p.entry_id = e.id))`,
  },
  {
    name: 'posting_currency_matches_account',
    query: `select p.id as posting_id, p.currency_id, a.currency_id as account_currency_id
      from postings p join accounts a on a.id = p.account_id where p.currency_id <> a.currency_id`,
  },
  {
    // Each currency's prizes account holds what activities were funded minus the prizes paid
    // (decision 015); it never holds money of another origin.
    name: 'prize_account_matches_activities',
    query: `select a.id as account_id, a.currency_id, a.balance::text as balance, coalesce(f.total, 0)::text as funded,
        coalesce(w.total, 0)::text as paid
      from accounts a
      left join (select x.prize_currency_id as currency_id, sum(f.amount) as total
                 from activity_fundings f join activities x on x.id = f.activity_id group by x.prize_currency_id) f
        on f.currency_id = a.currency_id
      left join (select x.prize_currency_id as currency_id, sum(w.amount) as total
                 from activity_winners w join activities x on x.id = w.activity_id where w.entry_id is not null
                 group by x.prize_currency_id) w
        on w.currency_id = a.currency_id
      where a.user_id is null and a.kind = 'prizes' and a.balance <> coalesce(f.total, 0) - coalesce(w.total, 0)`,
  },
  {
    // The prize account's total above cannot tell which activity a prize was paid from, nor a
    // funding or prize row that differs from what its entry moved (offsetting errors cancel
    // there): each row must equal its entry's posting on the prize account (a prize: and the
    // credit to its winner's available account).
    name: 'activity_rows_match_entries',
    query: `select 'funding' as row_kind, f.id as row_id, f.entry_id, f.amount::text as amount,
        coalesce((select sum(p.amount) from postings p join accounts a on a.id = p.account_id
                  where p.entry_id = f.entry_id and a.user_id is null and a.kind = 'prizes'
                    and a.currency_id = x.prize_currency_id), 0)::text as moved
      from activity_fundings f join activities x on x.id = f.activity_id
      where f.amount <> coalesce((select sum(p.amount) from postings p join accounts a on a.id = p.account_id
                                  where p.entry_id = f.entry_id and a.user_id is null and a.kind = 'prizes'
                                    and a.currency_id = x.prize_currency_id), 0)
      union all
      select 'prize', w.id, w.entry_id, w.amount::text,
        coalesce((select sum(p.amount) from postings p join accounts a on a.id = p.account_id
                  where p.entry_id = w.entry_id and a.user_id = w.user_id and a.kind = 'available'
                    and a.currency_id = x.prize_currency_id), 0)::text
      from activity_winners w join activities x on x.id = w.activity_id
      where w.entry_id is not null
        and (w.amount <> coalesce((select sum(p.amount) from postings p join accounts a on a.id = p.account_id
                                   where p.entry_id = w.entry_id and a.user_id = w.user_id and a.kind = 'available'
                                     and a.currency_id = x.prize_currency_id), 0)
          or -w.amount <> coalesce((select sum(p.amount) from postings p join accounts a on a.id = p.account_id
                                    where p.entry_id = w.entry_id and a.user_id is null and a.kind = 'prizes'
                                      and a.currency_id = x.prize_currency_id), 0))`,
  },
  {
    // Each activity pays only from its own funding (decision 015), never another's leftover.
    name: 'activity_paid_within_funding',
    query: `select x.id as activity_id, coalesce(f.total, 0)::text as funded, w.total::text as paid
      from activities x
      join (select activity_id, sum(amount) as total from activity_winners where entry_id is not null group by activity_id) w
        on w.activity_id = x.id
      left join (select activity_id, sum(amount) as total from activity_fundings group by activity_id) f on f.activity_id = x.id
      where w.total > coalesce(f.total, 0)`,
  },
  {
    // Guarded by no foreign key on these high-volume rows (decisions 028, 030 and 067, drizzle/0024,
    // 0026 and 0067): the ledger and watcher functions take the ids from the tables, users, currencies and accounts are
    // never deleted, and an entry that is referenced cannot be.
    name: 'ledger_row_references_exist',
    query: `select 'transfers' as source, t.id::text as row_id from transfers t
      where not exists (select 1 from users u where u.id = t.from_user_id)
         or not exists (select 1 from users u where u.id = t.to_user_id)
         or not exists (select 1 from currencies c where c.id = t.currency_id)
      union all
      select 'swaps', s.id::text from swaps s
      where not exists (select 1 from users u where u.id = s.user_id)
         or not exists (select 1 from currencies c where c.id = s.from_currency_id)
         or not exists (select 1 from currencies c where c.id = s.to_currency_id)
         or not exists (select 1 from currencies c where c.id = s.fee_currency_id)
      union all
      select 'journal_entries', e.id::text from journal_entries e
      where e.user_id is not null and not exists (select 1 from users u where u.id = e.user_id)
      union all
      select 'deposits', d.id::text from deposits d
      where not exists (select 1 from users u where u.id = d.user_id)
         or not exists (select 1 from currencies c where c.id = d.currency_id)
      union all
      select 'user_events', v.id::text from user_events v
      where not exists (select 1 from users u where u.id = v.user_id)
      union all
      select 'postings', p.id::text from postings p
      where not exists (select 1 from journal_entries e where e.id = p.entry_id)
         or not exists (select 1 from accounts a where a.id = p.account_id)`,
  },
  {
    // A withdrawal refunded (cancelled, rejected, failed) while one of its transactions is
    // recorded mined successfully was paid twice: on chain and back to the user
    // (docs/decisions/038; reconciliation finds the same loss from the chain's side).
    // an operator's zero-value cancel (chain_txs.cancel, docs/decisions/037) pays nothing: mined, it is why the refund was right
    name: 'refunded_withdrawal_paid_on_chain',
    query: `select w.id as withdrawal_id, w.status, w.amount::text as amount, t.tx_hash
      from withdrawals w join withdrawal_entries we on we.withdrawal_id = w.id and we.kind = 'withdraw_refund'
      join chain_txs t on t.withdrawal_id = w.id and t.status = 'mined' and not t.cancel`,
  },
  {
    name: 'idempotency_key_unique',
    query: `select user_id, idempotency_key, count(*) as uses from journal_entries
      where idempotency_key is not null group by user_id, idempotency_key having count(*) > 1`,
  },
];

/** Tables (other than postings) with an entry_id column: the business records of entries. */
async function businessTables(run: (q: string) => Promise<Record<string, unknown>[]>): Promise<string[]> {
  const rows = await run(
    `select table_name::text as t from information_schema.columns
     where table_schema = current_schema() and column_name = 'entry_id' and table_name not in ('postings')
     order by table_name`,
  );
  return rows.map((r) => String(r.t)).filter((t) => /^[a-z_][a-z0-9_]*$/.test(t));
}

function businessChecks(tables: string[]): Check[] {
  if (tables.length === 0) return [];
  const refs = tables.map((t) => `select '${t}' as business_table, id::text as row_id, entry_id from ${t}`).join(' union all ');
  const checks: Check[] = [
    {
      name: 'business_row_entry_exists',
      query: `select r.business_table, r.row_id, r.entry_id from (${refs}) r
        left join journal_entries e on e.id = r.entry_id where r.entry_id is not null and e.id is null`,
    },
    {
      name: 'refused_entry_has_no_business_row',
      query: `select r.business_table, r.row_id, r.entry_id, e.refusal from (${refs}) r
        join journal_entries e on e.id = r.entry_id where e.refusal is not null`,
    },
    {
      name: 'entry_referenced_once',
      query: `select r.entry_id, count(*) as rows, string_agg(r.business_table || ':' || r.row_id, ', ') as refs
        from (${refs}) r where r.entry_id is not null group by r.entry_id having count(*) > 1`,
    },
  ];
  const kinds = BUSINESS_KINDS.filter((b) => tables.includes(b.table));
  if (kinds.length > 0) {
    const cases = kinds.map((b) => `(e.kind = '${b.kind}' and not exists (select 1 from ${b.table} x where x.entry_id = e.id))`);
    checks.push({
      name: 'entry_has_business_row',
      query: `select e.id as entry_id, e.kind from journal_entries e where e.refusal is null and (${cases.join(' or ')})`,
    });
  }
  return checks;
}

/**
 * Checks every ledger invariant of docs/product.md §8.3 in one read-only snapshot. A check lists its
 * violations (count and a few samples); the report is ok only when every check is.
 */
export async function auditLedger(database: Database): Promise<AuditReport> {
  return database.db.transaction(
    async (tx) => {
      const run = async (q: string) => {
        const res = (await tx.execute(sql.raw(q))) as unknown as { rows: Record<string, unknown>[] };
        return res.rows;
      };
      const checks = [...STATIC_CHECKS, ...businessChecks(await businessTables(run))];
      const results: AuditReport['checks'] = [];
      for (const check of checks) {
        const rows = await run(`select v.*, count(*) over () as violations_total from (${check.query}) v limit ${SAMPLE}`);
        const violations = Number(rows[0]?.violations_total ?? 0);
        const sample = rows.map(({ violations_total: _n, ...rest }) =>
          Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
        );
        results.push({ name: check.name, ok: violations === 0, violations, sample });
      }
      return { ok: results.every((r) => r.ok), checkedAt: new Date().toISOString(), checks: results };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
