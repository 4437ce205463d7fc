import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { migrateDatabase, migrationsFolder, openPglite, openPostgres } from '../db/client.ts';
import { createScratchDatabase } from '../db/scratch.ts';

/**
 * Migrating a fresh database costs ~2 s per test file on PGlite (mostly its initdb), ~8 s on a
 * loaded runner. Instead the run migrates ONE database and every test file starts from a copy:
 * - PGlite: the migrated data directory as an uncompressed tarball on disk (~40 MB); a test file
 *   loads it with `loadDataDir` (~0.4 s). The tarball is named by a hash of the migrations and
 *   the PGlite version, so later runs reuse it and a changed migration makes a new one.
 * - PostgreSQL: a migrated template database per run; a test file runs
 *   `create database x template <it>` (a file copy, no migration).
 * Each test file still gets a database of its own. The env variables below carry the result
 * from vitest's globalSetup to the test processes (forked after it, so they inherit them).
 */
export const PGLITE_SNAPSHOT_ENV = 'COFFER_TEST_PGLITE_SNAPSHOT';
export const PG_TEMPLATE_ENV = 'COFFER_TEST_PG_TEMPLATE';

/** Hash of everything the migrated state depends on: migration files and the PGlite build. */
function migrationsHash(): string {
  const hash = crypto.createHash('sha256');
  hash.update(`pglite ${pgliteVersion()}\n`);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(`${path.relative(migrationsFolder, full)}\n`).update(fs.readFileSync(full));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

/** The installed PGlite's version: its package.json, found upward from its entry file. */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the version of @electric-sql/pglite');
    dir = up;
  }
}

/** Path of a migrated PGlite data directory tarball, made if missing (atomically: rename). */
export async function pgliteSnapshot(): Promise<string> {
  const file = path.join(os.tmpdir(), `coffer-pglite-migrated-${migrationsHash()}.tar`);
  if (fs.existsSync(file)) return file;
  const database = await openPglite();
  try {
    await migrateDatabase(database);
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    const blob = await client.dumpDataDir('none');
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(tmp, file);
    removeStaleSnapshots(file);
  } finally {
    await database.close();
  }
  return file;
}

/** Older migrations' tarballs (~40 MB each), once no run can still be reading them (a day). */
function removeStaleSnapshots(current: string) {
  const dir = path.dirname(current);
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (!/^coffer-pglite-migrated-[0-9a-f]+\.tar$/.test(name) || full === current) continue;
    try {
      if (Date.now() - fs.statSync(full).mtimeMs > STALE_SNAPSHOT_MS) fs.rmSync(full, { force: true });
    } catch {
      // Removed by a concurrent run.
    }
  }
}
const STALE_SNAPSHOT_MS = 24 * 60 * 60 * 1000;

/** Creates and migrates a template database next to `adminUrl`; returns its name. */
export async function createPostgresTemplate(adminUrl: string): Promise<string> {
  const { name, url } = await createScratchDatabase(adminUrl, 'coffer_tpl');
  const database = await openPostgres(url, 2);
  try {
    await migrateDatabase(database);
  } finally {
    // No connection may stay open: `create database ... template` refuses a template in use.
    await database.close();
  }
  return name;
}
