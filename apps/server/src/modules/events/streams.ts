/** Open streams one session may hold in this process (one per tab; a few tabs). */
export const MAX_STREAMS_PER_SESSION = 3;
/** Open streams one user may hold in this process, over all their sessions. */
export const MAX_STREAMS_PER_USER = 8;

interface Entry {
  sessionId: number;
  /** Ends the stream because a newer one took its place (the route tells the client why). */
  evict: () => void;
}

/**
 * The open event streams of this process per user, oldest first. A new stream over a cap
 * closes the oldest one of the session (per-session cap) or of the user (per-user cap), so a
 * client that opens streams in a loop holds at most MAX_STREAMS_PER_USER connections and
 * cannot starve other users' requests (docs/security.md, "Event stream caps").
 */
export class StreamRegistry {
  private readonly byUser = new Map<number, Entry[]>();

  /** Registers a stream and evicts what it pushes over the caps; answers its removal. */
  add(userId: number, sessionId: number, evict: () => void): () => void {
    const entry: Entry = { sessionId, evict };
    const list = this.byUser.get(userId) ?? [];
    this.byUser.set(userId, list);
    list.push(entry);
    const ofSession = list.filter((e) => e.sessionId === sessionId);
    if (ofSession.length > MAX_STREAMS_PER_SESSION) this.evict(userId, ofSession[0]!);
    if (list.length > MAX_STREAMS_PER_USER) this.evict(userId, list[0]!);
    return () => this.remove(userId, entry);
  }

  /** How many streams the user (or one session of theirs) holds in this process. */
  count(userId: number, sessionId?: number): number {
    const list = this.byUser.get(userId) ?? [];
    return sessionId === undefined ? list.length : list.filter((e) => e.sessionId === sessionId).length;
  }

  private evict(userId: number, entry: Entry) {
    this.remove(userId, entry);
    entry.evict();
  }

  private remove(userId: number, entry: Entry) {
    const list = this.byUser.get(userId);
    if (!list) return;
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byUser.delete(userId);
  }
}
