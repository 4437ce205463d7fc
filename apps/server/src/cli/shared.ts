import { loadConfig } from '../config.ts';
import { isBizError } from '../core/errors.ts';
import { messageFor } from '../core/locale.ts';
import type { Database } from '../db/client.ts';
import { openConfiguredDatabase } from '../runtime.ts';

/**
 * Runs an operator command against the same database the server uses (same environment
 * variables). In the embedded mode PGlite allows one process per DATA_DIR, so the server
 * has to be stopped first; the message says so.
 */
export async function withConfiguredDatabase(task: (database: Database) => Promise<number>): Promise<never> {
  let code = 1;
  try {
    const config = loadConfig();
    let opened: Awaited<ReturnType<typeof openConfiguredDatabase>>;
    try {
      opened = await openConfiguredDatabase(config);
    } catch (e) {
      const msg = (e as Error).message;
      if (!config.DATABASE_URL && /in use/.test(msg)) {
        throw new Error(
          `${msg}\nThe embedded database (PGlite) in DATA_DIR can be opened by one process only: ` +
            'stop the Coffer server first, then run this command again (with PostgreSQL, set DATABASE_URL; ' +
            'the server may keep running).',
        );
      }
      throw e;
    }
    try {
      code = await task(opened.database);
    } finally {
      await opened.database.close();
      opened.release();
    }
  } catch (e) {
    if (isBizError(e)) console.error(`error ${e.bizCode}: ${messageFor(e.bizCode, 'en-US', e.detail)}`);
    else console.error((e as Error).message);
    code = code === 0 ? 1 : code;
  }
  process.exit(code);
}
