// Tests of scripts/config-doc.ts: the committed docs/configuration.md is in step with the schema,
// and the check fails on a planted stale page and on a planted variable without a description.
// Run: node --import tsx --test scripts/config-doc.test.ts (the lint stage of scripts/test.mjs does).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { z } from 'zod';
import { configRows, DOC_PATH, renderConfigDoc } from './config-doc.ts';

const script = path.join(import.meta.dirname, 'config-doc.ts');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-doc-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8', cwd: path.dirname(script) });

test('the committed docs/configuration.md is in step with the schema', () => {
  const res = run('--check');
  assert.equal(res.status, 0, res.stdout + res.stderr);
});

test('a planted stale page fails the check, naming the line', () => {
  const stale = path.join(dir, 'configuration.md');
  fs.writeFileSync(stale, fs.readFileSync(DOC_PATH, 'utf8').replace('| `PORT` | `8080` |', '| `PORT` | `3000` |'));
  const res = run('--check', '--doc', stale);
  assert.equal(res.status, 1, res.stdout);
  assert.match(res.stdout, /out of step with the schema from line \d+/);
  assert.match(res.stdout, /expected: \| `PORT` \| `8080` \|/);
  // --write puts it back in step.
  assert.equal(run('--write', '--doc', stale).status, 0);
  assert.equal(run('--check', '--doc', stale).status, 0);
});

test('a planted variable without a description is an error; its comment becomes the meaning', () => {
  const source = [
    'export const envSchema = z.object({',
    '  /**',
    '   * Seconds between polls,',
    '   * at most a minute.',
    '   */',
    '  POLL_SECONDS: z.coerce.number().int().min(1).max(60).default(5),',
    "  MODE: z.enum(['on', 'off']).default('on').transform((v) => v === 'on'),",
    '  NAMED: z.string().optional().describe("From describe()."),',
    '});',
  ].join('\n');
  const schema = z.object({
    POLL_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
    MODE: z
      .enum(['on', 'off'])
      .default('on')
      .transform((v) => v === 'on'),
    NAMED: z.string().optional().describe('From describe().'),
  });
  const { rows, errors } = configRows(schema, source);
  assert.deepEqual(errors, ['MODE: no description (write a /** doc comment */ above it in the schema, or .describe())']);
  assert.deepEqual(rows, [
    { name: 'POLL_SECONDS', default: '5', accepts: '1-60', meaning: 'Seconds between polls, at most a minute.' },
    { name: 'MODE', default: 'on', accepts: 'on, off', meaning: '' },
    { name: 'NAMED', default: 'unset', accepts: '', meaning: 'From describe().' },
  ]);
  assert.match(renderConfigDoc(rows), /\| `POLL_SECONDS` \| `5` \| 1-60 \| Seconds between polls, at most a minute. \|/);
});
