import type { Database } from '../db/client.ts';

/**
 * Fault injection by composition: the simulator hands the app a Database whose `sql` and `db`
 * wrap the real ones, so no code under db/, ledger/ or modules/ knows about it. Armed faults
 * fire once, on the next statement they match, then disarm.
 *
 * - lost-before-commit: the batch statement really runs, inside a transaction on a connection
 *   of its own, and the connection is then lost before COMMIT (PostgreSQL: the socket is
 *   destroyed, the server rolls back; PGlite: rolled back). The caller sees an error without
 *   a SQLSTATE, as node-postgres reports a dropped connection.
 * - lost-after-commit: the statement runs and commits, then the answer is lost (error without
 *   a SQLSTATE): the money moved but nobody was told.
 * - refused-whole: the database refuses the whole statement with a SQLSTATE before it runs
 *   (57014, a statement timeout): the writer runs every item again alone.
 * - deadlock-whole: the same with 40P01 (a deadlock between two processes' batches): the
 *   writer may run the items again.
 * Only lost-after-commit leaves money moved; after the others nothing of the statement is
 * in the database, whether the writer then runs its items again or fails them.
 * The adjustment faults wrap `db.transaction` (adjustBalance's one transaction) the same way:
 * adjust-lost-before-commit runs the work then throws inside the transaction (rolled back),
 * adjust-lost-after-commit throws once the transaction has committed.
 */
export const BATCH_FAULTS = ['lost-before-commit', 'lost-after-commit', 'refused-whole', 'deadlock-whole'] as const;
export type BatchFault = (typeof BATCH_FAULTS)[number];
export const ADJUST_FAULTS = ['adjust-lost-before-commit', 'adjust-lost-after-commit'] as const;
export type AdjustFault = (typeof ADJUST_FAULTS)[number];
/**
 * The same two losses on the one statement that keeps a refusal given before the ledger
 * (`ledger_keep_refusal()`, decision 012: a swap below its pair's minimum, with a key).
 */
export const REFUSAL_FAULTS = ['refusal-lost-before-commit', 'refusal-lost-after-commit'] as const;
export type RefusalFault = (typeof REFUSAL_FAULTS)[number];
export type FaultKind = BatchFault | AdjustFault | RefusalFault;

export type Writer = 'transfer' | 'swap';

/** A batch statement the fault fired on: which writer, its parameters (one array per argument). */
export interface FiredBatch {
  writer: Writer;
  fault: BatchFault;
  params: unknown[][];
}

interface ArmedBatch {
  writer: Writer;
  fault: BatchFault;
  /** Fires on the nth matching statement after arming (1 = the first). */
  nth: number;
  seen: number;
}

/** The error node-postgres gives for a dropped connection: a message, no SQLSTATE, no severity. */
export const connectionLost = () => new Error('sim: Connection terminated unexpectedly');

/** An ErrorResponse as the drivers raise it: a SQLSTATE in `code`, and a severity. */
const refusal = (code: string, message: string) => Object.assign(new Error(`sim: ${message}`), { code, severity: 'ERROR' });

const ROLLBACK = Symbol('sim rollback');

function writerOf(text: string): Writer | null {
  if (/\bcoffer_transfer_batch\s*\(/.test(text)) return 'transfer';
  if (/\bcoffer_swap_batch\s*\(/.test(text)) return 'swap';
  return null;
}

export interface FaultyDatabase {
  database: Database;
  /** Arms one batch fault for the nth statement of `writer` from now. */
  armBatch(writer: Writer, fault: BatchFault, nth: number): void;
  /** Arms one adjustment fault for the next transaction. */
  armAdjust(fault: AdjustFault): void;
  /** Arms one fault for the next ledger_keep_refusal() statement. */
  armRefusal(fault: RefusalFault): void;
  /** Disarms whatever did not fire; returns what fired since the last call. */
  collect(): { fired: FiredBatch[]; adjustFired: AdjustFault | null; refusalFired: RefusalFault | null };
  /** Batch statements seen per writer (to tell batches of several items from single ones). */
  statements: Record<Writer, number>;
}

export function withFaults(inner: Database): FaultyDatabase {
  let armed: ArmedBatch | null = null;
  let armedAdjust: AdjustFault | null = null;
  let fired: FiredBatch[] = [];
  let adjustFired: AdjustFault | null = null;
  let armedRefusal: RefusalFault | null = null;
  let refusalFired: RefusalFault | null = null;
  const statements: Record<Writer, number> = { transfer: 0, swap: 0 };

  /** Runs a statement in a transaction that never commits (the connection is lost before COMMIT). */
  async function runThenLose(text: string, params: unknown[]): Promise<void> {
    if (inner.kind === 'postgres' && inner.dedicated) {
      const conn = await inner.dedicated();
      try {
        await conn.query('begin');
        await conn.query(text, params);
      } finally {
        // Destroying the socket mid-transaction: the server rolls back, as on a real loss.
        conn.release(connectionLost());
      }
      return;
    }
    const client = (inner.db as unknown as { $client: PgliteLike }).$client;
    await client
      .transaction(async (tx) => {
        await tx.query(text, params);
        throw ROLLBACK;
      })
      .catch((e: unknown) => {
        if (e !== ROLLBACK) throw e;
      });
  }

  const sql: Database['sql'] = {
    async query<T>(text: string, params?: unknown[], opts?: { name?: string }): Promise<T[]> {
      if (armedRefusal && /\bledger_keep_refusal\s*\(/.test(text)) {
        const fault = armedRefusal;
        armedRefusal = null;
        refusalFired = fault;
        if (fault === 'refusal-lost-before-commit') await runThenLose(text, params ?? []);
        else await inner.sql.query<T>(text, params, opts);
        throw connectionLost();
      }
      const writer = writerOf(text);
      if (writer) statements[writer]++;
      if (!writer || !armed || armed.writer !== writer || ++armed.seen < armed.nth) {
        return inner.sql.query<T>(text, params, opts);
      }
      const { fault } = armed;
      armed = null;
      fired.push({ writer, fault, params: (params ?? []) as unknown[][] });
      if (fault === 'refused-whole') throw refusal('57014', 'canceling statement due to statement timeout');
      if (fault === 'deadlock-whole') throw refusal('40P01', 'deadlock detected');
      if (fault === 'lost-before-commit') {
        await runThenLose(text, params ?? []);
        throw connectionLost();
      }
      try {
        await inner.sql.query<T>(text, params, opts);
      } catch (e) {
        // The statement itself was refused (e.g. 40001: a twin in a concurrent batch took its
        // key): nothing committed, so no answer was lost. The fault did not happen.
        fired.pop();
        throw e;
      }
      throw connectionLost();
    },
  };

  type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];
  const transaction: Database['db']['transaction'] = async (fn, config) => {
    const fault = armedAdjust;
    armedAdjust = null;
    if (!fault) return inner.db.transaction(fn, config);
    adjustFired = fault;
    if (fault === 'adjust-lost-before-commit') {
      await inner.db.transaction(async (tx: Tx) => {
        await fn(tx);
        throw connectionLost();
      }, config);
      throw new Error('unreachable: the transaction above always throws');
    }
    await inner.db.transaction(fn, config);
    throw connectionLost();
  };

  const db = new Proxy(inner.db, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });

  return {
    database: { ...inner, sql, db, close: () => inner.close() },
    statements,
    armBatch(writer, fault, nth) {
      armed = { writer, fault, nth, seen: 0 };
    },
    armAdjust(fault) {
      armedAdjust = fault;
    },
    armRefusal(fault) {
      armedRefusal = fault;
    },
    collect() {
      const out = { fired, adjustFired, refusalFired };
      armed = null;
      armedAdjust = null;
      armedRefusal = null;
      fired = [];
      adjustFired = null;
      refusalFired = null;
      return out;
    },
  };
}

interface PgliteLike {
  transaction<T>(fn: (tx: { query(text: string, params?: unknown[]): Promise<unknown> }) => Promise<T>): Promise<T>;
}
