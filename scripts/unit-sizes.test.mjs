// Tests of scripts/unit-sizes.mjs: a planted file over the limit fails the check; a long
// function is counted but does not fail it; test and generated files are left out.
// Run: node --test scripts/unit-sizes.test.mjs (the lint stage does).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const checker = path.join(import.meta.dirname, 'unit-sizes.mjs');
const roots = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unit-sizes-'));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const check = (root) => {
  const res = spawnSync(process.execPath, [checker, '--root', root, '--functions'], { encoding: 'utf8' });
  return { status: res.status, out: res.stdout };
};

/** A function of n lines in all, braces included. */
const fn = (name, n) => `export function ${name}() {\n${'  void 0;\n'.repeat(n - 2)}}\n`;
const lines = (n) => 'export const x = 1;\n'.repeat(n - 1);

const clean = {
  'apps/server/src/small.ts': fn('short', 70),
  'apps/web/src/page.tsx': 'export const Page = () => <p>hi</p>;\n',
};

test('a tree of small units passes and counts no long function', () => {
  const { status, out } = check(tree(clean));
  assert.equal(status, 0);
  assert.match(out, /functions over 70 lines: 0/);
});

test('a long function is counted and named, and does not fail', () => {
  const { status, out } = check(tree({ ...clean, 'apps/server/src/long.ts': fn('tooLong', 71) }));
  assert.equal(status, 0);
  assert.match(out, /functions over 70 lines: 1/);
  assert.match(out, /71 apps\/server\/src\/long\.ts:1 tooLong/);
});

test('a source file over 400 lines fails, named with its size', () => {
  const { status, out } = check(tree({ ...clean, 'apps/server/src/big.ts': lines(401) }));
  assert.equal(status, 1);
  assert.match(out, /^file: apps\/server\/src\/big\.ts has 401 lines/m);
});

test('test, test-support, e2e and generated files are left out', () => {
  const { status, out } = check(
    tree({
      ...clean,
      'apps/server/src/big.test.ts': lines(500) + fn('longTest', 80),
      'apps/server/src/modules/a/test-support.ts': lines(500),
      'apps/server/src/test/harness.ts': lines(500),
      'e2e/src/flow.ts': lines(500),
      'apps/web/src/routeTree.generated.ts': lines(500),
      'apps/web/src/types.d.ts': lines(500),
      'node_modules/pkg/index.ts': lines(500),
    }),
  );
  assert.equal(status, 0);
  assert.match(out, /functions over 70 lines: 0/);
});
