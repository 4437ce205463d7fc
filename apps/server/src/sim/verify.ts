import type { Database } from '../db/client.ts';
import { auditLedger } from '../ledger/audit.ts';
import type { Model, RowCounts } from './model.ts';
import { check } from './types.ts';

/** The checks after every step: audit clean, every balance and row count as the model says. */
export async function verify(database: Database, model: Model): Promise<void> {
  const audit = await auditLedger(database);
  const failed = audit.checks.filter((c) => !c.ok);
  check(failed.length === 0, `ledger audit: ${failed.map((c) => `${c.name} (${c.violations}: ${JSON.stringify(c.sample)})`).join('; ')}`);
  const accounts = await database.sql.query<{ user_id: number | null; currency_id: number; kind: string; balance: string }>(
    'select user_id, currency_id, kind, balance::text as balance from accounts',
  );
  const balanceDiff = model.diffBalances(accounts);
  check(balanceDiff.length === 0, `balances: ${balanceDiff.join('; ')}`);
  const [rows] = await database.sql.query<RowCounts>(
    `select (select count(*) from transfers)::int as transfers, (select count(*) from swaps)::int as swaps,
            (select count(*) from adjustments)::int as adjustments,
            (select count(*) from journal_entries where refusal is null)::int as entries,
            (select count(*) from journal_entries where refusal is not null)::int as refusals,
            (select count(*) from postings)::int as postings,
            (select count(*) from operator_actions where action = 'ledger.adjust')::int as "adjustActions"`,
  );
  const rowDiff = model.diffRows(rows!);
  check(rowDiff.length === 0, `rows: ${rowDiff.join('; ')}`);
}
