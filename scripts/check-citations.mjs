#!/usr/bin/env node
// Citations a newcomer can open. Code and docs cite the product (docs/product.md §n) and the
// decision records (docs/decisions/NNN-*.md, "decision NNN"); this fails the lint stage on:
//
//   outside     a citation of a document that is not in the repository: "DESIGN §n",
//               "DESIGN.md", "spec §n", "wallet-spec", "issue N" / "issue #N";
//   section     "docs/product.md §n" (or "product.md §n.m") naming a section it does not have;
//   decision    "decision NNN" or docs/decisions/NNN-*.md naming a record that does not exist;
//   doc         a docs/<path>.md path that does not exist.
//
// Applied database migrations (apps/server/drizzle/*.sql) are left as they shipped.
// Usage: node scripts/check-citations.mjs [--root DIR]. One line per finding, exit 1 on any.
import fs from 'node:fs';
import path from 'node:path';

const SCANNED = ['apps', 'packages', 'e2e', 'bench', 'scripts', 'docs', 'README.md'];
const TEXT = /\.(ts|tsx|mts|js|mjs|jsx|css|html|sql|md|json|yml|yaml|sh)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'screenshots', 'artifacts', '.git']);
/** This checker and its tests spell the forbidden forms out on purpose. */
const SELF = new Set(['scripts/check-citations.mjs', 'scripts/check-citations.test.mjs']);
const isMigration = (rel) => /^apps\/server\/drizzle\/[^/]+\.sql$/.test(rel);

const OUTSIDE = [
  [/\bDESIGN(?:\.md)?\s*§\s*\d+/g, 'the design brief is not in the repository'],
  [/\bDESIGN\.md\b/g, 'the design brief is not in the repository'],
  [/\bspec\s*§\s*\d+/g, 'the specification is not in the repository'],
  [/\bwallet-spec(?:\.md)?\b/g, 'the specification is not in the repository'],
  [/\b[Ii]ssues?\s+#?\d+\b/g, 'issue threads are not in the repository'],
];

function walk(root, rel, out) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return out;
  if (fs.statSync(full).isFile()) {
    if (TEXT.test(rel)) out.push(rel);
    return out;
  }
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    walk(root, path.posix.join(rel, entry.name), out);
  }
  return out;
}

/** The section numbers docs/product.md has: "## 5. ..." gives 5, "- **§5.2 ...**" gives 5.2. */
export function productSections(text) {
  const found = new Set();
  for (const line of text.split('\n')) {
    const n = line.match(/^##\s+(\d+)\./)?.[1] ?? line.match(/^\s*-\s+\*\*§(\d+(?:\.\d+)?)/)?.[1];
    if (n) found.add(n);
  }
  return found;
}

export function checkCitations(root) {
  const findings = [];
  const decisionsDir = path.join(root, 'docs/decisions');
  const records = fs.existsSync(decisionsDir) ? fs.readdirSync(decisionsDir).filter((f) => /^\d{3}-.+\.md$/.test(f)) : [];
  const recordNumbers = new Set(records.map((f) => f.slice(0, 3)));
  const productPath = path.join(root, 'docs/product.md');
  const sections = fs.existsSync(productPath) ? productSections(fs.readFileSync(productPath, 'utf8')) : new Set();

  for (const rel of SCANNED.flatMap((s) => walk(root, s, []))) {
    if (SELF.has(rel) || isMigration(rel)) continue;
    const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const at = `${rel}:${i + 1}`;
      for (const [re, why] of OUTSIDE) {
        for (const m of line.matchAll(re))
          findings.push(`outside: ${at}: "${m[0]}" (${why}; cite docs/product.md §n or a decision record)`);
      }
      for (const m of line.matchAll(/\bproduct\.md\s*§\s*(\d+(?:\.\d+)?)(?:\s*(?:,|and)\s*§(\d+(?:\.\d+)?))?/g)) {
        for (const n of [m[1], m[2]].filter(Boolean)) {
          if (!sections.has(n)) findings.push(`section: ${at}: docs/product.md has no §${n}`);
        }
      }
      for (const m of line.matchAll(/\b[Dd]ecisions?\s+(\d{3})\b/g)) {
        if (!recordNumbers.has(m[1])) findings.push(`decision: ${at}: no record docs/decisions/${m[1]}-*.md`);
      }
      for (const m of line.matchAll(/\bdocs\/decisions\/(\d{3})[-\w]*\.md\b/g)) {
        if (!records.includes(m[0].slice('docs/decisions/'.length))) findings.push(`decision: ${at}: no record ${m[0]}`);
      }
      for (const m of line.matchAll(/\bdocs\/(?!decisions\/(?:\d{3}|NNN))[\w/-]+\.md\b/g)) {
        if (!fs.existsSync(path.join(root, m[0]))) findings.push(`doc: ${at}: ${m[0]} does not exist`);
      }
    });
  }
  return findings;
}

if (process.argv[1]?.endsWith('check-citations.mjs')) {
  const at = process.argv.indexOf('--root');
  const root = path.resolve(at > 0 ? process.argv[at + 1] : path.join(import.meta.dirname, '..'));
  const findings = checkCitations(root);
  for (const f of findings) console.log(f);
  console.log(findings.length ? `check-citations: ${findings.length} finding(s)` : 'check-citations: ok');
  process.exit(findings.length ? 1 : 0);
}
