import os from 'node:os';
import { parseArgs } from 'node:util';
import { adjustBalance } from '../ledger/adjust.ts';
import { withConfiguredDatabase } from './shared.ts';

const USAGE = `Credit (or debit) a user's available balance against the adjustments account.

  npm run ledger:adjust -- --email a@b.c --currency USDT --amount 100 --reason "..." [--debit]
  npm run ledger:adjust -- --uid 12 --currency 1 --amount 0.5 --debit --reason "..."

Uses the server's configuration (DATABASE_URL, or PGlite in DATA_DIR: stop the server first).
The adjustment is recorded with who (cli:<os user>) and why, and shows in the ledger audit.`;

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    uid: { type: 'string' },
    currency: { type: 'string' },
    amount: { type: 'string' },
    reason: { type: 'string' },
    debit: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (values.help || !values.currency || !values.amount || !values.reason || !values.email === !values.uid) {
  console.error(USAGE);
  process.exit(values.help ? 0 : 2);
}

const uid = values.uid === undefined ? undefined : Number(values.uid);
if (uid !== undefined && !(Number.isSafeInteger(uid) && uid > 0)) {
  console.error('--uid must be a positive integer');
  process.exit(2);
}
const currency = /^\d+$/.test(values.currency) ? Number(values.currency) : values.currency;

await withConfiguredDatabase(async (database) => {
  const result = await adjustBalance(database, {
    user: uid !== undefined ? { uid } : { email: values.email ?? '' },
    currency,
    amount: values.amount ?? '',
    direction: values.debit ? 'debit' : 'credit',
    reason: values.reason ?? '',
    actor: `cli:${os.userInfo().username}`,
    actorUserId: null,
  });
  console.log(
    `adjustment #${result.adjustmentId} (entry ${result.entryId}): uid ${result.uid} ${result.amount} ${result.code}, ` +
      `available now ${result.balanceAfter} ${result.code}`,
  );
  return 0;
});
