import type { SqlClient } from '../client.ts';

/**
 * A data check around one migration that changes or drops constraints or data (the shape of
 * Formance's up_tests_before/after): `before` writes rows as the schema stood just before the
 * migration, `after` asserts what the migration made of them. migration-checks.test.ts runs
 * every migration in order on an empty database and calls these around theirs.
 */
export interface MigrationCheck {
  /** the migration's file name without .sql, e.g. 0061_explorer_tx_links */
  migration: string;
  /** what the check shows, for the test's name */
  what: string;
  before(sql: SqlClient): Promise<void>;
  /** throws (an assertion) when the data is not what the migration should have made of it */
  after(sql: SqlClient): Promise<void>;
}

/** Asserts without a test framework (the checks run inside one test): throws with the difference. */
export function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** True when the statement is refused by the database (a constraint, a trigger). */
export async function refused(sql: SqlClient, text: string, params: unknown[] = []): Promise<boolean> {
  try {
    await sql.query(text, params);
    return false;
  } catch {
    return true;
  }
}
