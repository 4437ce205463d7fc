import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import type { Database } from './client.ts';
import { compareSqlDefinitions, databaseSqlDefinitions, fileSqlDefinitions, normaliseSql } from './sql-definitions.ts';

describe('apps/server/sql holds the current definition of every SQL function and trigger', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('a migrated database matches the files exactly, with no function or trigger left out and no stale file', async () => {
    const fromDatabase = await databaseSqlDefinitions(database.sql);
    const files = fileSqlDefinitions();
    expect(fromDatabase.length).toBeGreaterThan(30);
    // On a mismatch: `node --import tsx apps/server/scripts/sql-functions.ts --write`.
    expect(compareSqlDefinitions(fromDatabase, files)).toEqual({ missingFile: [], noSuchObject: [], differs: [] });
  });

  it('sees a changed body, a function without a file and a file without a function', async () => {
    await database.sql.query(`create function public.probe_without_file() returns int language sql as $$ select 1 $$`);
    const fromDatabase = await databaseSqlDefinitions(database.sql);
    const files = fileSqlDefinitions().map((f) =>
      f.file === 'functions/ledger_post.sql' ? { ...f, text: f.text.replace('BEGIN', 'BEGIN\n  PERFORM 1;') } : f,
    );
    files.push({ file: 'functions/gone.sql', text: normaliseSql('select 1') });
    expect(compareSqlDefinitions(fromDatabase, files)).toEqual({
      missingFile: ['functions/probe_without_file.sql'],
      noSuchObject: ['functions/gone.sql'],
      differs: ['functions/ledger_post.sql'],
    });
    await database.sql.query('drop function public.probe_without_file()');
  });

  it('normalises line ends and trailing blanks only', () => {
    expect(normaliseSql('a  \r\nb\t\n\n')).toBe('a\nb\n');
    expect(normaliseSql('a\n  b')).toBe('a\n  b\n');
  });
});
