/**
 * Checks (default) or regenerates (--write) apps/server/sql/{functions,triggers}/*.sql from a
 * freshly migrated in-memory PGlite: every function and trigger in schema public, as
 * pg_get_functiondef / pg_get_triggerdef prints it. After adding a migration that changes a
 * function, run with --write and commit the files with the migration.
 *   node --import tsx apps/server/scripts/sql-functions.ts [--write]
 */
import fs from 'node:fs';
import path from 'node:path';
import { migrateDatabase, openPglite } from '../src/db/client.ts';
import { compareSqlDefinitions, databaseSqlDefinitions, fileSqlDefinitions, sqlDefinitionsDir } from '../src/db/sql-definitions.ts';

const write = process.argv.includes('--write');
const database = await openPglite();
try {
  await migrateDatabase(database);
  const fromDatabase = await databaseSqlDefinitions(database.sql);
  if (write) {
    for (const sub of ['functions', 'triggers']) {
      fs.rmSync(path.join(sqlDefinitionsDir, sub), { recursive: true, force: true });
      fs.mkdirSync(path.join(sqlDefinitionsDir, sub), { recursive: true });
    }
    for (const d of fromDatabase) fs.writeFileSync(path.join(sqlDefinitionsDir, d.file), d.text);
    console.log(`wrote ${fromDatabase.length} files under ${sqlDefinitionsDir}`);
  } else {
    const diff = compareSqlDefinitions(fromDatabase, fileSqlDefinitions());
    const problems = [
      ...diff.missingFile.map((f) => `no file for ${f}`),
      ...diff.noSuchObject.map((f) => `${f}: no such function or trigger after migrating`),
      ...diff.differs.map((f) => `${f} differs from the migrated database`),
    ];
    for (const p of problems) console.error(p);
    if (problems.length > 0) {
      console.error('run with --write to regenerate from the migrations');
      process.exitCode = 1;
    } else console.log(`${fromDatabase.length} SQL definitions match the migrations`);
  }
} finally {
  await database.close();
}
