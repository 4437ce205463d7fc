import { dropPostgresDatabase } from '../db/scratch.ts';
import { createPostgresTemplate, PG_TEMPLATE_ENV, PGLITE_SNAPSHOT_ENV, pgliteSnapshot } from './template-db.ts';

/**
 * vitest globalSetup: migrates once per run (see template-db.ts) and hands the result to the
 * test processes through the environment. Returns the teardown.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.TEST_DB === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const template = await createPostgresTemplate(adminUrl);
    process.env[PG_TEMPLATE_ENV] = template;
    return () => dropPostgresDatabase(adminUrl, template);
  }
  process.env[PGLITE_SNAPSHOT_ENV] = await pgliteSnapshot();
  return async () => {};
}
