import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlClient } from './client.ts';

/**
 * The current definition of every SQL function and trigger Coffer owns (schema public), one
 * file each under apps/server/sql/. Migrations restate functions (CREATE OR REPLACE), so a
 * function's text is otherwise scattered over drizzle/*.sql; these files are what a reviewer
 * reads, and a test checks that a migrated database matches them exactly
 * (scripts/sql-functions.ts --write regenerates them from a migrated database).
 */
export const sqlDefinitionsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../sql');

export interface SqlDefinition {
  /** Path under sqlDefinitionsDir, e.g. `functions/ledger_post.sql`. */
  file: string;
  text: string;
}

/** Same on both sides: no trailing spaces, LF line ends, exactly one final newline. */
export function normaliseSql(text: string): string {
  return `${text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim()}\n`;
}

/** The definitions as the database has them (pg_get_functiondef / pg_get_triggerdef). */
export async function databaseSqlDefinitions(sql: SqlClient): Promise<SqlDefinition[]> {
  const functions = await sql.query<{ name: string; def: string; comment: string | null }>(
    `select p.proname as name, pg_get_functiondef(p.oid) as def, obj_description(p.oid, 'pg_proc') as comment
       from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p')
      order by p.proname, pg_get_function_identity_arguments(p.oid)`,
  );
  const triggers = await sql.query<{ name: string; tbl: string; def: string }>(
    `select t.tgname as name, c.relname as tbl, pg_get_triggerdef(t.oid) as def
       from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal
      order by c.relname, t.tgname`,
  );
  const out = [
    // a function's comment (COMMENT ON FUNCTION: why it is so) follows it, as runnable SQL
    ...functions.map((f) => ({ file: `functions/${f.name}.sql`, text: normaliseSql(withComment(f.name, f.def, f.comment)) })),
    // pg_get_triggerdef gives no final semicolon; the file is runnable SQL with one.
    ...triggers.map((t) => ({ file: `triggers/${t.tbl}.${t.name}.sql`, text: normaliseSql(`${t.def};`) })),
  ];
  const seen = new Set<string>();
  for (const d of out) {
    // One file per name: an overloaded function would need its own naming scheme.
    if (seen.has(d.file)) throw new Error(`two definitions map to ${d.file} (overloaded function?)`);
    seen.add(d.file);
  }
  return out;
}

function withComment(name: string, def: string, comment: string | null): string {
  if (comment === null) return def;
  return `${def.trimEnd()}\n\nCOMMENT ON FUNCTION public.${name} IS '${comment.replaceAll("'", "''")}';`;
}

/**
 * Money functions: those that post to the ledger (ledger_post, ledger_open_entry, postings
 * written directly) and every function that calls one of them, found in the definitions.
 */
export function moneyFunctions(definitions: SqlDefinition[]): string[] {
  const bodies = new Map(
    definitions
      .filter((d) => d.file.startsWith('functions/'))
      .map((d) => [d.file.slice('functions/'.length, -'.sql'.length), d.text.split('\n').slice(1).join('\n')]),
  );
  const money = new Set(['ledger_post', 'ledger_open_entry']);
  const posts = /ledger_post\(|ledger_open_entry\(|insert\s+into\s+postings/i;
  for (const [name, body] of bodies) if (posts.test(body)) money.add(name);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, body] of bodies) {
      if (money.has(name)) continue;
      if ([...money].some((m) => new RegExp(`\\b${m}\\(`).test(body))) {
        money.add(name);
        grew = true;
      }
    }
  }
  return [...money].filter((name) => bodies.has(name)).sort();
}

/** The definitions as the files under sqlDefinitionsDir have them. */
export function fileSqlDefinitions(dir = sqlDefinitionsDir): SqlDefinition[] {
  const out: SqlDefinition[] = [];
  for (const sub of ['functions', 'triggers']) {
    const full = path.join(dir, sub);
    if (!fs.existsSync(full)) continue;
    for (const name of fs.readdirSync(full).sort()) {
      if (!name.endsWith('.sql')) continue;
      out.push({ file: `${sub}/${name}`, text: normaliseSql(fs.readFileSync(path.join(full, name), 'utf8')) });
    }
  }
  return out;
}

/** Differences between the database and the files: empty when they match. */
export function compareSqlDefinitions(database: SqlDefinition[], files: SqlDefinition[]) {
  const inFiles = new Map(files.map((f) => [f.file, f.text]));
  const inDatabase = new Map(database.map((d) => [d.file, d.text]));
  return {
    missingFile: database.filter((d) => !inFiles.has(d.file)).map((d) => d.file),
    noSuchObject: files.filter((f) => !inDatabase.has(f.file)).map((f) => f.file),
    differs: database.filter((d) => inFiles.has(d.file) && inFiles.get(d.file) !== d.text).map((d) => d.file),
  };
}
