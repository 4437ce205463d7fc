import type { MigrationCheck } from './checks.ts';
import { explorerTxLinks } from './0061-explorer-tx-links.ts';
import { swapDisplayPrecision } from './0057-swap-display-precision.ts';
import { utxoPayouts } from './0053-utxo-payouts.ts';
import { depositWrites } from './0067-deposit-writes.ts';

/** Every migration data check, in migration order (a migration may have several). */
export const MIGRATION_CHECKS: readonly MigrationCheck[] = [utxoPayouts, swapDisplayPrecision, explorerTxLinks, depositWrites];
