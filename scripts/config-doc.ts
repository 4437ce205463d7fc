#!/usr/bin/env node
// docs/configuration.md, generated from the server's configuration schema (apps/server/src/config.ts):
// each variable's name, default and accepted values from the zod schema, its meaning from the
// doc comment above it (or its .describe()). The lint stage runs the check mode, so the page
// cannot drift from the schema, and a variable without a description fails it.
//
// Usage: node --import tsx scripts/config-doc.ts [--write | --check] [--doc PATH]
//   --write  rewrites the page; --check (the default) exits 1 when the page differs.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { z } from 'zod';

const repo = path.resolve(import.meta.dirname, '..');
const CONFIG_SOURCE = path.join(repo, 'apps/server/src/config.ts');
export const DOC_PATH = path.join(repo, 'docs/configuration.md');

export interface ConfigRow {
  name: string;
  default: string;
  accepts: string;
  meaning: string;
}

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definition is untyped on purpose.
type Def = any;
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** The schema's default value, looking through optional, pipes (transform, preprocess) and defaults. */
function defaultOf(schema: unknown): { value: unknown } | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'default':
    case 'prefault':
      return { value: def.defaultValue };
    case 'optional':
    case 'nullable':
      return defaultOf(def.innerType);
    case 'pipe':
      return defaultOf(def.in) ?? defaultOf(def.out);
    default:
      return null;
  }
}

/** A short statement of what the value may be: enum members, a number's range. */
function acceptsOf(schema: unknown): string {
  const def = defOf(schema);
  if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional' || def.type === 'nullable') {
    return acceptsOf(def.innerType);
  }
  if (def.type === 'pipe') return acceptsOf(def.in) || acceptsOf(def.out);
  if (def.type === 'enum') return Object.values(def.entries as Record<string, string>).join(', ');
  if (def.type === 'number') {
    const { minValue, maxValue } = schema as { minValue: number | null; maxValue: number | null };
    const finite = (n: number | null) => n !== null && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER;
    if (finite(minValue) && finite(maxValue)) return `${minValue}-${maxValue}`;
  }
  return '';
}

/** A default as the page shows it: paths inside the repository relative to it, machine-free. */
function showDefault(found: { value: unknown } | null): string {
  if (!found || found.value === undefined) return 'unset';
  const { value } = found;
  if (value === '') return 'empty';
  if (typeof value === 'string' && path.isAbsolute(value) && value.startsWith(repo)) {
    return path.relative(repo, value).split(path.sep).join('/');
  }
  return String(value);
}

/** The doc comment above each property of `export const envSchema = z.object({...})`, as one line. */
export function schemaComments(sourceText: string): Map<string, string> {
  const source = ts.createSourceFile('config.ts', sourceText, ts.ScriptTarget.Latest, true);
  const comments = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'envSchema' && node.initializer) {
      const call = node.initializer;
      const object = ts.isCallExpression(call) ? call.arguments[0] : undefined;
      if (object && ts.isObjectLiteralExpression(object)) {
        for (const property of object.properties) {
          const ranges = ts.getLeadingCommentRanges(sourceText, property.getFullStart()) ?? [];
          const doc = ranges.filter((r) => sourceText.startsWith('/**', r.pos)).at(-1);
          if (!doc || !property.name) continue;
          const text = sourceText
            .slice(doc.pos + 3, doc.end - 2)
            .split('\n')
            .map((line) => line.replace(/^\s*\*\s?/, '').trim())
            .filter(Boolean)
            .join(' ');
          comments.set(property.name.getText(source), text);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return comments;
}

/** One row per variable, in the schema's order; errors name variables with no description. */
export function configRows(schema: z.ZodObject, sourceText: string): { rows: ConfigRow[]; errors: string[] } {
  const comments = schemaComments(sourceText);
  const rows: ConfigRow[] = [];
  const errors: string[] = [];
  for (const [name, field] of Object.entries(schema.shape)) {
    const meaning = (field as { description?: string }).description ?? comments.get(name) ?? '';
    if (!meaning) errors.push(`${name}: no description (write a /** doc comment */ above it in the schema, or .describe())`);
    rows.push({ name, default: showDefault(defaultOf(field)), accepts: acceptsOf(field), meaning });
  }
  return { rows, errors };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;');
/** A default in a code span, where only the table's bar needs escaping. */
const code = (text: string) => (text === 'unset' || text === 'empty' ? text : `\`${text.replace(/\|/g, '\\|')}\``);

export function renderConfigDoc(rows: ConfigRow[]): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- GENERATED from apps/server/src/config.ts by `node --import tsx scripts/config-doc.ts --write`; do not edit by hand. -->',
    '',
    'Everything comes from environment variables, checked at start: a bad value stops the server and',
    'names the variable. The meanings are the doc comments of the schema in apps/server/src/config.ts;',
    'change them there and regenerate this page (the lint stage fails while it is out of step).',
    '',
    '| variable | default | accepts | meaning |',
    '|---|---|---|---|',
    ...rows.map((r) => `| \`${r.name}\` | ${code(r.default)} | ${cell(r.accepts)} | ${cell(r.meaning)} |`),
    '',
  ];
  return lines.join('\n');
}

async function main(argv: string[]) {
  const at = argv.indexOf('--doc');
  const docPath = at >= 0 ? path.resolve(argv[at + 1] ?? '') : DOC_PATH;
  const { envSchema } = await import('../apps/server/src/config.ts');
  const { rows, errors } = configRows(envSchema, fs.readFileSync(CONFIG_SOURCE, 'utf8'));
  for (const e of errors) console.log(`config-doc: ${e}`);
  const text = renderConfigDoc(rows);
  if (argv.includes('--write')) {
    fs.writeFileSync(docPath, text);
    console.log(`config-doc: wrote ${path.relative(process.cwd(), docPath)} (${rows.length} variables)`);
    return errors.length ? 1 : 0;
  }
  const current = fs.existsSync(docPath) ? fs.readFileSync(docPath, 'utf8') : '';
  if (current !== text) {
    const have = current.split('\n');
    const want = text.split('\n');
    const line = want.findIndex((l, i) => l !== have[i]);
    console.log(`config-doc: ${path.relative(process.cwd(), docPath)} is out of step with the schema from line ${line + 1}:`);
    console.log(`  expected: ${want[line]}\n  found:    ${have[line] ?? '(end of file)'}`);
    console.log('  run: node --import tsx scripts/config-doc.ts --write');
    return 1;
  }
  console.log(errors.length ? 'config-doc: descriptions missing' : 'config-doc: ok');
  return errors.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  process.exit(await main(process.argv.slice(2)));
}
