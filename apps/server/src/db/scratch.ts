import crypto from 'node:crypto';
import pg from 'pg';

/**
 * Databases made and dropped next to an admin URL (a PostgreSQL server the caller may create
 * databases on): the tests' per-file databases and template, the simulator, the chain bench and
 * the tests that start real server processes all use these instead of each their own copy.
 */

export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** `adminUrl` with its database name replaced by `name`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPostgresDatabase(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}

/** A new empty database named `<prefix>_<random hex>`; `drop()` removes it, connections and all. */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  return { name, url: databaseUrl(adminUrl, name), drop: () => dropPostgresDatabase(adminUrl, name) };
}
