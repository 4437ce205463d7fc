#!/usr/bin/env node
// Unit sizes of the TypeScript source (decision 063): units small enough to hold in mind.
//
//   file      a source file over 400 lines: the rule, the check exits 1.
//   function  a function over 70 lines (declaration, method, arrow or function expression,
//             measured on the TypeScript syntax tree from its first to its last line): a guide,
//             counted and listed, never failing.
//
// Test code (*.test.*, test-support/test-helpers files, apps/server/src/test/, e2e/) and
// generated files (*.d.ts, paths naming "generated") are left out.
//
// Usage: node scripts/unit-sizes.mjs [--root DIR] [--functions]. --functions lists every
// function over the guide, longest first; without it only their count is printed.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const FILE_LINE_LIMIT = 400;
export const FUNCTION_LINE_GUIDE = 70;

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'coverage', 'playwright-report', 'test-results']);

const isTestCode = (rel) =>
  /\.test\.[cm]?tsx?$/.test(rel) || /(^|\/)test-(support|helpers)\.tsx?$/.test(rel) || /(^|\/)test\//.test(rel) || rel.startsWith('e2e/');

const isGenerated = (rel) => rel.endsWith('.d.ts') || /generated/i.test(rel);

function sourceFiles(root, dir = root, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      sourceFiles(root, full, out);
      continue;
    }
    const rel = path.relative(root, full).split(path.sep).join('/');
    if (/\.(ts|tsx|mts)$/.test(entry.name) && !isTestCode(rel) && !isGenerated(rel)) out.push(rel);
  }
  return out;
}

/** The name a function is known by: its own, or the variable, property or method holding it. */
function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText();
  }
  if (parent && ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node);

/** Every function of one file over the guide: { line, lines, name }. */
export function longFunctions(rel, text) {
  const kind = rel.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const visit = (node) => {
    if (isFunction(node)) {
      const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > FUNCTION_LINE_GUIDE) found.push({ line: first + 1, lines, name: functionName(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Files over the limit and functions over the guide, each longest first. */
export function measure(root) {
  const bigFiles = [];
  const bigFunctions = [];
  for (const rel of sourceFiles(root)) {
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    const lines = text.split('\n').length;
    if (lines > FILE_LINE_LIMIT) bigFiles.push({ file: rel, lines });
    for (const fn of longFunctions(rel, text)) bigFunctions.push({ file: rel, ...fn });
  }
  bigFiles.sort((a, b) => b.lines - a.lines);
  bigFunctions.sort((a, b) => b.lines - a.lines);
  return { bigFiles, bigFunctions };
}

function main(argv) {
  const rootAt = argv.indexOf('--root');
  const root = rootAt >= 0 ? path.resolve(argv[rootAt + 1]) : path.resolve(import.meta.dirname, '..');
  const { bigFiles, bigFunctions } = measure(root);
  for (const { file, lines } of bigFiles) console.log(`file: ${file} has ${lines} lines (limit ${FILE_LINE_LIMIT})`);
  console.log(`functions over ${FUNCTION_LINE_GUIDE} lines: ${bigFunctions.length} (a guide, not a gate)`);
  if (argv.includes('--functions')) {
    for (const fn of bigFunctions) console.log(`  ${fn.lines} ${fn.file}:${fn.line} ${fn.name}`);
  }
  if (bigFiles.length) {
    console.log(`${bigFiles.length} source file(s) over ${FILE_LINE_LIMIT} lines: split them by step or feature.`);
    return 1;
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)));
