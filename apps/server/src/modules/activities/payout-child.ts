/**
 * Test helper (payout-restart.test.ts): runs one payout tick against the database named by
 * CHILD_DATABASE_URL (PostgreSQL) or CHILD_PGLITE_DIR (PGlite data directory) and, when
 * KILL_AFTER_PRIZES=k is set, SIGKILLs itself right after the k-th winner's prize committed —
 * a crash between two winners, with no chance to clean up.
 */
import { openPglite, openPostgres } from '../../db/client.ts';
import { payoutTick } from './payout.ts';

const killAfter = Number(process.env.KILL_AFTER_PRIZES ?? '0');
const url = process.env.CHILD_DATABASE_URL;
const database = url ? await openPostgres(url, 2) : await openPglite(process.env.CHILD_PGLITE_DIR);
let paid = 0;
const result = await payoutTick(database, {
  onPaid: () => {
    paid++;
    if (killAfter > 0 && paid >= killAfter) process.kill(process.pid, 'SIGKILL');
  },
});
await database.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
