import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/harness.ts';
import { type Database, migrationsFolder, openPglite, openPostgres } from './client.ts';
import { MIGRATION_CHECKS } from './migration-checks/index.ts';
import { createScratchDatabase } from './scratch.ts';

/** The migrations in the order they run (drizzle's journal), each as its statements. */
function migrations(): { tag: string; statements: string[] }[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.map(({ tag }) => ({
    tag,
    statements: fs
      .readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  }));
}

/**
 * Migrations that change or drop constraints or data, checked on data (Formance's
 * up_tests_before/after shape, migration-checks/): every migration runs in order on an empty
 * database, and each check writes its rows just before its migration and asserts what became
 * of them just after.
 */
describe(`migration data checks (${testDbKind})`, () => {
  let database: Database;
  let drop = async () => {};
  beforeAll(async () => {
    if (testDbKind === 'pglite') database = await openPglite();
    else {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string, 'coffer_m');
      database = await openPostgres(scratch.url, 2);
      drop = scratch.drop;
    }
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });

  it('every check names a migration that exists, in migration order', () => {
    const tags = migrations().map((m) => m.tag);
    const positions = MIGRATION_CHECKS.map((c) => tags.indexOf(c.migration));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it(`runs every migration on an empty database with the checks around theirs: ${MIGRATION_CHECKS.map((c) => c.migration).join(', ')}`, async () => {
    const ran: string[] = [];
    for (const m of migrations()) {
      const checks = MIGRATION_CHECKS.filter((c) => c.migration === m.tag);
      for (const c of checks) await c.before(database.sql);
      for (const statement of m.statements) await database.sql.query(statement);
      for (const c of checks) {
        await c.after(database.sql);
        ran.push(c.migration);
      }
    }
    expect(ran).toEqual(MIGRATION_CHECKS.map((c) => c.migration));
  }, 120_000);
});
