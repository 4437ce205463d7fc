// Tests of scripts/check-citations.mjs: each kind of citation a newcomer cannot open fails on a
// planted file. Run: node --test scripts/check-citations.test.mjs (the lint stage does).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const checker = path.join(import.meta.dirname, 'check-citations.mjs');
const roots = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'citations-'));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const check = (root) => {
  const res = spawnSync(process.execPath, [checker, '--root', root], { encoding: 'utf8' });
  const lines = res.stdout.split('\n').filter((l) => /^(outside|section|decision|doc):/.test(l));
  return { status: res.status, lines: lines.map((l) => l.replace(/ \(.*\)$/, '')) };
};

const clean = {
  'docs/product.md': '# The product\n\n## 1. What it is\n\n## 2. Screens\n- **§2.3 Guard**: steps.\n',
  'docs/decisions/012-idempotent-refusals.md': '# 012 Refusals\n',
  'docs/architecture.md': 'See docs/product.md §2.3 and docs/decisions/012-idempotent-refusals.md.\n',
  'apps/server/src/a.ts': '// Kept under its key (decision 012; docs/product.md §1, §2.3).\n',
  // Applied migrations stay as they shipped.
  'apps/server/drizzle/0001_old.sql': '-- Money in one round trip (DESIGN §6).\n',
};

test('citations of what the repository holds pass', () => {
  assert.deepEqual(check(tree(clean)), { status: 0, lines: [] });
});

test('each planted citation a newcomer cannot open fails, named with its line', () => {
  const root = tree({
    ...clean,
    'apps/web/src/b.ts': '// The envelope (DESIGN §5).\n/** Route rules of spec §2. */\n',
    'e2e/src/c.test.ts': '// Issue 9 item 2: said under the field (see issue #6).\n',
    'packages/contract/src/d.ts': '// Read wallet-spec.md and DESIGN.md first.\n',
    'bench/e.mjs': '// docs/product.md §7 and decision 099 and docs/decisions/013-gone.md and docs/gone.md\n',
  });
  const { status, lines } = check(root);
  assert.equal(status, 1);
  assert.deepEqual(lines.sort(), [
    'decision: bench/e.mjs:1: no record docs/decisions/013-gone.md',
    'decision: bench/e.mjs:1: no record docs/decisions/099-*.md',
    'doc: bench/e.mjs:1: docs/gone.md does not exist',
    'outside: apps/web/src/b.ts:1: "DESIGN §5"',
    'outside: apps/web/src/b.ts:2: "spec §2"',
    'outside: e2e/src/c.test.ts:1: "Issue 9"',
    'outside: e2e/src/c.test.ts:1: "issue #6"',
    'outside: packages/contract/src/d.ts:1: "DESIGN.md"',
    'outside: packages/contract/src/d.ts:1: "wallet-spec.md"',
    'section: bench/e.mjs:1: docs/product.md has no §7',
  ]);
});
