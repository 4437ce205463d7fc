// Tests of scripts/check-boundaries.mjs and of the import-cycle rule in biome.json: each rule
// must fail on a planted violation. Run: node --test scripts/check-boundaries.test.mjs (the lint
// stage of scripts/test.mjs does).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const repo = path.resolve(import.meta.dirname, '..');
const checker = path.join(repo, 'scripts/check-boundaries.mjs');

const roots = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A temporary tree from { 'relative/path': 'content' }, removed after the tests. */
function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const check = (root) => {
  const res = spawnSync(process.execPath, [checker, '--root', root], { encoding: 'utf8' });
  const lines = res.stdout.split('\n').filter((l) => /^(server-module|server-core|ledger-http|feature|shared):/.test(l));
  return { status: res.status, lines: lines.map((l) => l.replace(/ \(.*\)$/, '')) };
};

const S = 'apps/server/src';
const W = 'apps/web/src/features';
const C = 'apps/console/src';
const clean = {
  [`${S}/modules/a/index.ts`]: "export { inner } from './internal.ts';\n",
  [`${S}/modules/a/internal.ts`]: 'export const inner = 1;\n',
  [`${S}/modules/a/routes.ts`]: 'export async function aRoutes() {}\n',
  [`${S}/modules/b/service.ts`]: "import { inner } from '../a/index.ts';\nexport const b = inner;\n",
  [`${S}/modules/b/b.test.ts`]: "import { inner } from '../a/internal.ts';\nvoid inner;\n",
  [`${S}/modules/index.ts`]: "import { aRoutes } from './a/routes.ts';\nvoid aRoutes;\n",
  [`${S}/app.ts`]:
    "import type { FastifyInstance } from 'fastify';\nimport { inner } from './modules/a/index.ts';\nexport type A = FastifyInstance | typeof inner;\n",
  [`${S}/core/errors.ts`]: 'export class BizError extends Error {}\n',
  [`${S}/ledger/amounts.ts`]: "import { BizError } from '../core/errors.ts';\nexport const e = BizError;\n",
  [`${S}/ledger/amounts.test.ts`]: "import Fastify from 'fastify';\nvoid Fastify;\n",
  [`${W}/x/pages/page.tsx`]:
    "import { shared } from '../../../lib/shared';\nimport { local } from '../utils/local';\nvoid shared; void local;\n",
  [`${W}/x/utils/local.ts`]: 'export const local = 1;\n',
  [`${W}/y/api/thing.ts`]: 'export const thing = 1;\n',
  'apps/web/src/lib/shared.ts': 'export const shared = 1;\n',
  // The shell composes the features: app/ and main.tsx may import them.
  'apps/web/src/app/router.tsx': "import { thing } from '../features/y/api/thing';\nvoid thing;\n",
  'apps/web/src/main.tsx': "import { local } from './features/x/utils/local';\nvoid local;\n",
  [`${C}/features/p/pages/p.tsx`]: "import { Amount } from '../../../components/amount';\nvoid Amount;\n",
  [`${C}/features/q/api/q.ts`]: "import { api } from '../../../lib/api';\nexport const q = api;\n",
  [`${C}/components/amount.tsx`]: "import { api } from '../lib/api';\nexport const Amount = api;\n",
  [`${C}/lib/api.ts`]: 'export const api = 1;\n',
  [`${C}/app/layout.tsx`]: "import { q } from '../features/q/api/q';\nvoid q;\n",
  // chain/ may use core/ and its own files; a chain test may reach a module.
  [`${S}/core/event-hub.ts`]: 'export class EventHub {}\n',
  [`${S}/chain/runtime.ts`]: "import { EventHub } from '../core/event-hub.ts';\nexport const h = EventHub;\n",
  [`${S}/chain/runtime.test.ts`]: "import { inner } from '../modules/a/index.ts';\nvoid inner;\n",
};

test('a tree within the boundaries passes', () => {
  assert.deepEqual(check(tree(clean)), { status: 0, lines: [] });
});

test('each planted violation fails the check, named with its files', () => {
  const root = tree({
    ...clean,
    // Another module's internals, from a module and from outside modules/.
    [`${S}/modules/b/deep.ts`]: "import { inner } from '../a/internal.ts';\nexport const d = inner;\n",
    [`${S}/runtime.ts`]: "import { aRoutes } from './modules/a/routes.ts';\nvoid aRoutes;\n",
    // The ledger reaching fastify through a file it imports (type-only counts).
    [`${S}/core/http.ts`]: "import type { FastifyRequest } from 'fastify';\nexport type R = FastifyRequest;\n",
    [`${S}/ledger/keys.ts`]: "import type { R } from '../core/http.ts';\nexport type K = R;\n",
    // One web feature importing another (no extension, as the web app writes them).
    [`${W}/x/pages/other.tsx`]: "import {\n  thing,\n} from '../../y/api/thing';\nvoid thing;\n",
    // chain/ and ledger/ reaching a module, even through its public index.
    [`${S}/chain/leader.ts`]: "import { inner } from '../modules/a/index.ts';\nexport const l = inner;\n",
    [`${S}/ledger/post.ts`]: "import type { aRoutes } from '../modules/a/routes.ts';\nexport type P = typeof aRoutes;\n",
    // A phone feature taking something from the shell; shared web code importing a feature.
    [`${W}/x/pages/nav.tsx`]: "import { Router } from '../../../app/router';\nvoid Router;\n",
    'apps/web/src/stores/user.ts': "import { local } from '../features/x/utils/local';\nvoid local;\n",
    // The console: one feature importing another, a feature importing app/, shared importing a feature.
    [`${C}/features/p/pages/q-use.tsx`]: "import { q } from '../../q/api/q';\nvoid q;\n",
    [`${C}/features/q/pages/shell.tsx`]: "const m = import('../../../app/layout');\nvoid m;\n",
    [`${C}/lib/keys.ts`]: "export { q } from '../features/q/api/q';\n",
  });
  const { status, lines } = check(root);
  assert.equal(status, 1);
  assert.deepEqual(lines.sort(), [
    `feature: ${C}/features/p/pages/q-use.tsx -> ${C}/features/q/api/q.ts`,
    `feature: ${C}/features/q/pages/shell.tsx -> ${C}/app/layout.tsx`,
    `feature: ${W}/x/pages/nav.tsx -> apps/web/src/app/router.tsx`,
    `feature: ${W}/x/pages/other.tsx -> ${W}/y/api/thing.ts`,
    `ledger-http: ${S}/ledger/keys.ts -> ${S}/core/http.ts imports 'fastify'`,
    `server-core: ${S}/chain/leader.ts -> ${S}/modules/a/index.ts`,
    `server-core: ${S}/ledger/post.ts -> ${S}/modules/a/routes.ts`,
    `server-module: ${S}/ledger/post.ts -> ${S}/modules/a/routes.ts`,
    `server-module: ${S}/modules/b/deep.ts -> ${S}/modules/a/internal.ts`,
    `server-module: ${S}/runtime.ts -> ${S}/modules/a/routes.ts`,
    `shared: ${C}/lib/keys.ts -> ${C}/features/q/api/q.ts`,
    `shared: apps/web/src/stores/user.ts -> ${W}/x/utils/local.ts`,
  ]);
});

test("biome.json's noImportCycles fails on a type-only cycle", () => {
  const config = JSON.parse(fs.readFileSync(path.join(repo, 'biome.json'), 'utf8'));
  delete config.$schema;
  const root = tree({
    'biome.json': JSON.stringify(config),
    'src/deps.ts': "import type { Service } from './service.ts';\nexport interface Deps { service?: Service }\n",
    'src/service.ts': "import type { Deps } from './deps.ts';\nexport class Service { constructor(readonly deps: Deps) {} }\n",
  });
  const biome = path.join(repo, 'node_modules/.bin/biome');
  const res = spawnSync(biome, ['lint', '--only=suspicious/noImportCycles', root], { cwd: root, encoding: 'utf8' });
  assert.notEqual(res.status, 0, res.stdout + res.stderr);
  assert.match(res.stdout + res.stderr, /noImportCycles/);
  // And passes once the cycle is cut.
  fs.writeFileSync(path.join(root, 'src/deps.ts'), 'export interface Deps { name?: string }\n');
  const cut = spawnSync(biome, ['lint', '--only=suspicious/noImportCycles', root], { cwd: root, encoding: 'utf8' });
  assert.equal(cut.status, 0, cut.stdout + cut.stderr);
});
