import type { LiveEvent } from '@coffer/contract';
import type { Database } from '../db/client.ts';

/** How often the hub reads new events when nobody in this process woke it. */
export const EVENT_POLL_INTERVAL_MS = 1000;
/** Events older than this are pruned; a client that was away longer just refetches. */
export const EVENT_RETENTION_HOURS = 24;
/** At most this many events are replayed to a reconnecting client. */
export const EVENT_REPLAY_MAX = 500;

type Listener = (event: LiveEvent & { seq: number }) => void;

interface RawEvent {
  id: number;
  user_id: number;
  type: LiveEvent['type'];
  ref_id: number;
  status: string;
}

/**
 * Fans the user_events table out to the SSE connections of this process. One reader polls
 * for rows after the last id it saw (one query per interval, however many connections), so
 * events written by another process (the chain leader) reach every process's clients.
 */
export class EventHub {
  private readonly listeners = new Map<number, Set<Listener>>();
  private lastId = -1;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private stopped = false;
  private starting: Promise<void> | undefined;

  constructor(private readonly database: Database) {}

  subscribe(userId: number, listener: Listener): () => void {
    let set = this.listeners.get(userId);
    if (!set) {
      set = new Set();
      this.listeners.set(userId, set);
    }
    set.add(listener);
    // The first subscriber fixes where reading starts: events from now on, not the history.
    this.starting ??= this.head().then(
      (id) => {
        if (this.lastId < 0) this.lastId = id;
      },
      () => {},
    );
    this.start();
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
      if (this.listeners.size === 0) this.pause();
    };
  }

  /** The user's events after `afterId` (a reconnect with Last-Event-ID). */
  async replay(userId: number, afterId: number): Promise<(LiveEvent & { seq: number })[]> {
    const rows = await this.database.sql.query<RawEvent>(
      'select id, user_id, type, ref_id, status from user_events where user_id = $1 and id > $2 order by id limit $3',
      [userId, afterId, EVENT_REPLAY_MAX],
    );
    return rows.map(toEvent);
  }

  /** The newest event id (a fresh connection starts after it). */
  async head(): Promise<number> {
    const [row] = await this.database.sql.query<{ id: number | null }>('select max(id)::bigint as id from user_events');
    return Number(row?.id ?? 0);
  }

  /** Read now (called after this process wrote events). */
  wake(): void {
    if (this.listeners.size > 0) void this.read();
  }

  stop(): void {
    this.stopped = true;
    this.pause();
  }

  private start() {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.read(), EVENT_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  private pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private read(): Promise<void> {
    this.reading ??= this.readOnce().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async readOnce() {
    try {
      await this.starting;
      if (this.lastId < 0) this.lastId = await this.head();
      const rows = await this.database.sql.query<RawEvent>(
        'select id, user_id, type, ref_id, status from user_events where id > $1 order by id limit 1000',
        [this.lastId],
      );
      for (const row of rows) {
        this.lastId = Math.max(this.lastId, Number(row.id));
        for (const listener of this.listeners.get(Number(row.user_id)) ?? []) listener(toEvent(row));
      }
    } catch {
      // The database is briefly unavailable or closing: the next interval tries again.
    }
  }
}

function toEvent(r: RawEvent): LiveEvent & { seq: number } {
  return { seq: Number(r.id), type: r.type, id: Number(r.ref_id), status: r.status };
}

/** Drops events older than the retention window (run by the chain leader now and then). */
export async function pruneEvents(database: Database): Promise<void> {
  await database.sql.query(`delete from user_events where created_at < now() - make_interval(hours => $1)`, [EVENT_RETENTION_HOURS]);
}
