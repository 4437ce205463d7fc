import { sanitizeError } from '../../core/log.ts';
import type { Database } from '../../db/client.ts';
import { notifyTransfers } from './money-events.ts';
import { notifierFor, type NotifierLog } from './notifier.ts';

/** Transfers that landed wait this long for others to share one notice statement. */
export const TRANSFER_NOTICE_DELAY_MS = 50;
/** At most this many transfers per notice statement. */
export const TRANSFER_NOTICE_BATCH = 1000;

/**
 * The received-transfer notices of this process: the transfer service reports each transfer
 * that committed (not a replay), and they are written in batches off the request's path, so
 * a transfer never waits for, or fails with, its notice (docs/decisions/054).
 */
class TransferNoticeQueue {
  private ids: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly log: NotifierLog,
  ) {}

  add(id: number) {
    this.ids.push(id);
    this.timer ??= setTimeout(() => this.flush(), TRANSFER_NOTICE_DELAY_MS);
  }

  /** Resolves when what was reported so far has its notices (tests, shutdown). */
  async drain(): Promise<void> {
    if (this.timer) this.flush();
    await this.flushing;
  }

  private flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = this.ids.splice(0);
    this.flushing = this.flushing.then(async () => {
      const notifier = notifierFor(this.database);
      if (!notifier) return;
      for (let i = 0; i < ids.length; i += TRANSFER_NOTICE_BATCH) {
        try {
          await notifyTransfers(this.database, notifier, ids.slice(i, i + TRANSFER_NOTICE_BATCH));
        } catch (e) {
          this.log.warn({ error: sanitizeError(e) }, 'transfer notices failed');
        }
      }
    });
  }
}

const queues = new WeakMap<Database, TransferNoticeQueue>();

export function registerTransferNotices(database: Database, log: NotifierLog): void {
  queues.set(database, new TransferNoticeQueue(database, log));
}

/** A transfer committed: its recipient hears of it (no-op where no app registered a notifier). */
export function transferLanded(database: Database, transferId: number): void {
  queues.get(database)?.add(transferId);
}

/** Waits for the reported transfers' notices. */
export async function drainTransferNotices(database: Database): Promise<void> {
  await queues.get(database)?.drain();
}
