/**
 * The custody state machines (docs/decisions/037-custody-state-machines.md): for each, every
 * status it can be in and every move between two statuses that is allowed. This table is the
 * one source: `transition()` (transition.ts) refuses any other move before it writes, and
 * migration 0035 seeds the same rows into `state_transitions`, which a trigger on each table
 * reads to refuse the move in the database too, whoever writes it (a SQL function, a script).
 * The test state-machines.test.ts checks the two are equal.
 *
 * A new machine (say a hot -> cold transfer) is one more entry here, its rows in a migration
 * and the trigger on its table.
 */

export const WITHDRAWAL_STATUSES = ['review', 'queued', 'broadcast', 'confirming', 'completed', 'failed', 'cancelled', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const SWEEP_STATUSES = ['gas_required', 'waiting_for_gas', 'ready', 'sent', 'done', 'failed'] as const;
export type SweepStatus = (typeof SWEEP_STATUSES)[number];

export const UTXO_BATCH_STATUSES = ['broadcast', 'confirming', 'completed'] as const;
export type UtxoBatchStatus = (typeof UTXO_BATCH_STATUSES)[number];

type Moves<S extends string> = Readonly<Record<S, readonly S[]>>;

/**
 * A withdrawal: held for an operator's review (above the network's threshold), queued for the
 * sender, signed and broadcast, seen mined (confirming), then final. Every final status but
 * 'completed' gives the money back (coffer_withdraw_refund).
 */
export const WITHDRAWAL_MOVES: Moves<WithdrawalStatus> = {
  review: ['queued', 'rejected', 'cancelled'],
  // failed: the chain would refuse the transfer (estimate reverts), nothing was signed
  queued: ['broadcast', 'cancelled', 'failed'],
  // failed: the nonce was consumed by another transaction, or an operator found that no
  // attempt can be mined any more (docs/decisions/037)
  broadcast: ['confirming', 'failed'],
  // broadcast: the receipt disappeared (reorg); failed: the mined attempt reverted
  confirming: ['broadcast', 'completed', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
  rejected: [],
};

/**
 * A sweep of one deposit address (deposit address -> hot wallet), with its gas top-up (hot
 * wallet -> deposit address, for a token) as the two statuses gas_required -> waiting_for_gas.
 * A top-up is not a machine of its own: it exists only for its sweep, shares its row and ends
 * when the sweep is ready.
 */
export const SWEEP_MOVES: Moves<SweepStatus> = {
  // ready: the address already holds the gas; waiting_for_gas: top-up signed; done: nothing
  // left; failed: top-ups exhausted (MAX_TOPUP_ROUNDS)
  gas_required: ['waiting_for_gas', 'ready', 'done', 'failed'],
  // ready: top-up mined; gas_required: top-up reverted or its nonce taken (another round)
  waiting_for_gas: ['ready', 'gas_required', 'failed'],
  // gas_required: the top-up is gone (reorg) or was spent
  ready: ['sent', 'gas_required', 'done', 'failed'],
  // ready/gas_required: reverted or nonce taken, retried; failed: retries exhausted
  sent: ['done', 'ready', 'gas_required', 'failed'],
  done: [],
  failed: [],
};

/**
 * A UTXO payout batch (docs/decisions/051-utxo-payouts.md): one transaction paying several
 * withdrawals, signed and stored (broadcast), one of its attempts mined (confirming), then N
 * deep and settled (completed, by coffer_utxo_batch_complete).
 */
export const UTXO_BATCH_MOVES: Moves<UtxoBatchStatus> = {
  broadcast: ['confirming'],
  // broadcast: the block of the mined attempt was reorged away
  confirming: ['broadcast', 'completed'],
  completed: [],
};

export interface MachineSpec<S extends string> {
  /** the table holding the machine's rows (id bigint, status text, updated_at) */
  table: string;
  statuses: readonly S[];
  moves: Moves<S>;
  /** user_events.type emitted with every move (the user watches their withdrawals live) */
  userEvent?: string;
}

export const MACHINES = {
  withdrawal: { table: 'withdrawals', statuses: WITHDRAWAL_STATUSES, moves: WITHDRAWAL_MOVES, userEvent: 'withdraw' },
  sweep: { table: 'sweeps', statuses: SWEEP_STATUSES, moves: SWEEP_MOVES },
  utxo_batch: { table: 'utxo_batches', statuses: UTXO_BATCH_STATUSES, moves: UTXO_BATCH_MOVES },
} as const satisfies Record<string, MachineSpec<string>>;

export type MachineName = keyof typeof MACHINES;
export type StatusOf<M extends MachineName> = (typeof MACHINES)[M]['statuses'][number];

export function canMove<M extends MachineName>(machine: M, from: StatusOf<M>, to: StatusOf<M>): boolean {
  const moves = MACHINES[machine].moves as Moves<string>;
  return (moves[from] ?? []).includes(to);
}

/** Every allowed move as (machine, from, to) rows: what migration 0035 seeds into state_transitions. */
export function transitionRows(): { machine: string; from: string; to: string }[] {
  const rows: { machine: string; from: string; to: string }[] = [];
  for (const [machine, spec] of Object.entries(MACHINES)) {
    for (const [from, tos] of Object.entries(spec.moves as Moves<string>)) for (const to of tos) rows.push({ machine, from, to });
  }
  return rows;
}
