import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import type { Database } from './client.ts';
import { compareSqlDefinitions, databaseSqlDefinitions, fileSqlDefinitions, moneyFunctions, normaliseSql } from './sql-definitions.ts';

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

  it('every money function says why in the database (COMMENT ON FUNCTION), and its file carries it', async () => {
    const fromDatabase = await databaseSqlDefinitions(database.sql);
    const money = moneyFunctions(fromDatabase);
    expect(money).toEqual(
      expect.arrayContaining(['ledger_post', 'coffer_transfer_batch', 'coffer_withdraw_settle', 'coffer_utxo_batch_complete']),
    );
    const comments = await database.sql.query<{ name: string }>(
      `select p.proname as name from pg_proc p
        where p.pronamespace = 'public'::regnamespace and obj_description(p.oid, 'pg_proc') is not null`,
    );
    const commented = new Set(comments.map((c) => c.name));
    expect(money.filter((name) => !commented.has(name))).toEqual([]);
    for (const name of money) {
      expect(fileSqlDefinitions().find((f) => f.file === `functions/${name}.sql`)?.text).toContain(
        `COMMENT ON FUNCTION public.${name} IS '`,
      );
    }
  });

  it('finds the money functions: those that post, and those that call them', () => {
    const def = (name: string, body: string) => ({ file: `functions/${name}.sql`, text: `CREATE FUNCTION ${name}()\n${body}\n` });
    expect(
      moneyFunctions([
        def('ledger_post', 'INSERT INTO postings ...'),
        def('pays', 'PERFORM ledger_post(1, ...);'),
        def('calls_pays', 'PERFORM pays(1);'),
        def('reads', 'SELECT balance FROM accounts;'),
      ]),
    ).toEqual(['calls_pays', 'ledger_post', 'pays']);
  });

  it('normalises line ends and trailing blanks only', () => {
    expect(normaliseSql('a  \r\nb\t\n\n')).toBe('a\nb\n');
    expect(normaliseSql('a\n  b')).toBe('a\n  b\n');
  });
});
