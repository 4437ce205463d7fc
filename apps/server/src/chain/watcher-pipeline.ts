import type { BlockHeader, ChunkRead } from './watcher-scan.ts';

/** Blocks per chunk of a catch-up: each chunk is recorded, and moves the cursor, on its own. */
export const WATCH_CHUNK_BLOCKS = 1000;
/** Chunks read from the chain ahead of the one being recorded (chain reads in flight, in chunks). */
export const WATCH_CHUNKS_AHEAD = 1;
/**
 * A last chunk shorter than this share of a chunk joins the one before: one record and one
 * credit less on the catch-up's path (the adapter splits its chain reads into ranges of its own).
 */
export const WATCH_SHORT_TAIL_SHARE = 0.1;

export interface PipelineSteps {
  /** chain reads only (readChunk) */
  read(from: number, to: number): Promise<ChunkRead | 'reorged'>;
  /** records a chunk whose parent was checked, moving the cursor to its last block; answers the deposits seen */
  record(chunk: ChunkRead): Promise<{ found: number }>;
  /** credits what is due at a recorded height (once per deposit, in SQL); answers the deposits credited */
  credit(height: number): Promise<number>;
}

export interface PipelineResult {
  /** the last block recorded, or null when nothing was */
  recordedTo: number | null;
  /** a reorg was seen: the chunks after the last recorded one were not recorded */
  reorged: boolean;
  found: number;
  /**
   * The credits of the recorded chunks, one after another behind the records: settles with
   * the number credited once the last is done. The caller awaits it (and may read the chain
   * meanwhile); when the catch-up throws, they have settled before.
   */
  credits: Promise<number>;
  /** the headers recorded (those inside the hash window), by block number */
  headers: Map<number, BlockHeader>;
}

/**
 * Catches up [from, to] in chunks (decision 049): the chain answers the next chunks while the
 * current one is recorded (one call, decision 052), and the chunk before it is credited on
 * another connection (decision 066). Guarantees kept:
 * - a chunk is recorded only if its first block's parent is the last block recorded (the
 *   cursor's hash), so a chunk read ahead from another fork is never recorded over a changed
 *   parent; the catch-up stops there and the next tick's cursor check walks back;
 * - chunks are recorded in order, each in one statement with its deposits and the cursor,
 *   so a process killed between chunks resumes after the last one recorded;
 * - a chunk's credit (at its last block) starts once its record committed, one credit at a
 *   time, in height order (result.credits settles after the last); each is
 *   exactly once in SQL (coffer_deposit_credit_due), so a credit cut short by a kill is made
 *   by the next credit at any height at or above it (the next chunk's, or the next tick's).
 */
export async function pipelineCatchUp(
  from: number,
  to: number,
  cursorHash: string | null,
  steps: PipelineSteps,
  limits: { chunkBlocks: number; chunksAhead: number },
): Promise<PipelineResult> {
  const bounds = chunkBounds(from, to, limits.chunkBlocks);
  const reads: Array<Promise<ChunkRead | 'reorged'>> = [];
  const startRead = (i: number) => {
    if (i >= bounds.length || reads[i]) return;
    const [s, e] = bounds[i]!;
    reads[i] = steps.read(s, e);
    reads[i]!.catch(() => {}); // awaited in order below; one never reached is settled before returning
  };
  let parent = cursorHash;
  // The credit chain: each credit waits for the one before (they would contend for the same
  // accounts), while the next chunk is recorded beside it. A credit still waiting when a later
  // chunk is recorded goes to that chunk's height instead (one credit for both: a credit at a
  // height credits everything due at or below it).
  let credits: Promise<number> = Promise.resolve(0);
  let waitingHeight: number | null = null;
  const creditUpTo = (height: number) => {
    const queued = waitingHeight !== null;
    waitingHeight = height;
    if (queued) return;
    credits = credits.then(async (before) => {
      const at = waitingHeight as number;
      waitingHeight = null;
      return before + (await steps.credit(at));
    });
    credits.catch(() => {}); // the caller awaits it, or the finally below when a later step throws
  };
  const result: PipelineResult = { recordedTo: null, reorged: false, found: 0, credits, headers: new Map() };
  try {
    for (let i = 0; i <= limits.chunksAhead; i++) startRead(i);
    for (let i = 0; i < bounds.length; i++) {
      const chunk = await reads[i]!;
      startRead(i + limits.chunksAhead + 1);
      if (chunk === 'reorged' || (parent !== null && chunk.first.parentHash !== parent)) {
        result.reorged = true;
        break;
      }
      const recorded = await steps.record(chunk);
      result.found += recorded.found;
      result.recordedTo = chunk.to;
      creditUpTo(chunk.to);
      parent = chunk.last.hash;
      for (const h of chunk.headers) result.headers.set(Number(h.number), h);
    }
  } catch (err) {
    // Nothing of this tick keeps running after it throws: the credits settle first.
    await Promise.allSettled([credits]);
    throw err;
  } finally {
    // The reads never reached settle before the catch-up answers.
    await Promise.allSettled(reads);
  }
  result.credits = credits;
  return result;
}

/** [from, to] in chunks of `chunkBlocks`, a short last one joined to the one before (WATCH_SHORT_TAIL_SHARE). */
export function chunkBounds(from: number, to: number, chunkBlocks: number): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  for (let s = from; s <= to; s += chunkBlocks) bounds.push([s, Math.min(to, s + chunkBlocks - 1)]);
  const last = bounds.at(-1);
  if (bounds.length > 1 && last && last[1] - last[0] + 1 < chunkBlocks * WATCH_SHORT_TAIL_SHARE) {
    bounds.pop();
    bounds[bounds.length - 1]![1] = last[1];
  }
  return bounds;
}
