import { parseArgs } from 'node:util';
import { auditLedger } from '../ledger/audit.ts';
import { withConfiguredDatabase } from './shared.ts';

/** `npm run ledger:audit [-- --json]`: checks every ledger invariant; exits 1 on any violation. */
const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } }, strict: true });

await withConfiguredDatabase(async (database) => {
  const report = await auditLedger(database);
  if (values.json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    for (const c of report.checks) {
      console.log(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}${c.ok ? '' : `  (${c.violations} violation${c.violations === 1 ? '' : 's'})`}`);
      for (const s of c.sample) console.log(`        ${JSON.stringify(s)}`);
    }
    console.log(report.ok ? `ledger audit: all ${report.checks.length} checks passed` : 'ledger audit: VIOLATIONS FOUND');
  }
  return report.ok ? 0 : 1;
});
