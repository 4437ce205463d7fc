import type { Database } from '../../db/client.ts';

/**
 * How long one computed ranking answers the public board and users' ranks, per process. The
 * ranking aggregates every record in the window (about 0.3 s for 110k swaps on the shared
 * test machine), and phones poll it; a board a couple of seconds old is fine.
 */
export const RANKING_CACHE_MS = 2_000;
/** Activities whose ranking a process keeps at once (the oldest is dropped first). */
const MAX_CACHED = 50;

export interface Ranked {
  userId: number;
  rank: number;
  score: string;
  nickname: string | null;
  email: string;
  avatar: string | null;
}

interface Entry {
  at: number;
  rows: Promise<Ranked[]>;
}

const caches = new WeakMap<Pick<Database, 'sql'>, Map<number, Entry>>();

/** Every qualified user of the activity in rank order (coffer_activity_ranking), shared by concurrent callers. */
export function rankingOf(database: Pick<Database, 'sql'>, id: number): Promise<Ranked[]> {
  let cache = caches.get(database);
  if (!cache) {
    cache = new Map();
    caches.set(database, cache);
  }
  const hit = cache.get(id);
  if (hit && Date.now() - hit.at < RANKING_CACHE_MS) return hit.rows;
  const rows = database.sql
    .query<{ user_id: number; rank: number; score: string; nickname: string | null; email: string; avatar: string | null }>(
      `select r.user_id, r.rank, r.score::text as score, u.nickname, u.email, u.avatar
       from coffer_activity_ranking($1) r join users u on u.id = r.user_id order by r.rank`,
      [id],
    )
    .then((list) =>
      list.map((r) => ({
        userId: Number(r.user_id),
        rank: Number(r.rank),
        score: r.score,
        nickname: r.nickname,
        email: r.email,
        avatar: r.avatar,
      })),
    );
  const entry = { at: Date.now(), rows };
  cache.delete(id);
  cache.set(id, entry);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as number);
  // A failed read is not kept: the next caller tries again.
  rows.catch(() => {
    if (cache.get(id) === entry) cache.delete(id);
  });
  return rows;
}
