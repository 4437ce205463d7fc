import type { BlockHeader, ChunkRead } from './watcher-scan.ts';

/** Blocks per chunk of a catch-up: each chunk is recorded, and moves the cursor, on its own. */
export const WATCH_CHUNK_BLOCKS = 1000;
/** Chunks read from the chain ahead of the one being recorded (chain reads in flight, in chunks). */
export const WATCH_CHUNKS_AHEAD = 1;

export interface PipelineSteps {
  /** chain reads only (readChunk) */
  read(from: number, to: number): Promise<ChunkRead | 'reorged'>;
  /**
   * records a chunk whose parent was checked, moving the cursor to its last block, and credits
   * what is due at that block, in one transaction; answers the deposits seen and credited
   */
  record(chunk: ChunkRead): Promise<{ found: number; credited: number }>;
}

export interface PipelineResult {
  /** the last block recorded, or null when nothing was */
  recordedTo: number | null;
  /** a reorg was seen: the chunks after the last recorded one were not recorded */
  reorged: boolean;
  found: number;
  credited: number;
  /** the headers recorded (those inside the hash window), by block number */
  headers: Map<number, BlockHeader>;
}

/**
 * Catches up [from, to] in chunks (decision 049): the chain answers the next chunks while the
 * current one is recorded and credited (one call, decision 052). Guarantees kept:
 * - a chunk is recorded only if its first block's parent is the last block recorded (the
 *   cursor's hash), so a chunk read ahead from another fork is never recorded over a changed
 *   parent; the catch-up stops there and the next tick's cursor check walks back;
 * - chunks are recorded in order, each in one statement with its deposits and the cursor,
 *   so a process killed between chunks resumes after the last one recorded;
 * - a chunk's credit (at its last block) is in its record's transaction, so what the cursor
 *   passed is credited with it, exactly once in SQL (coffer_deposit_credit_due).
 */
export async function pipelineCatchUp(
  from: number,
  to: number,
  cursorHash: string | null,
  steps: PipelineSteps,
  limits: { chunkBlocks: number; chunksAhead: number },
): Promise<PipelineResult> {
  const bounds: Array<[number, number]> = [];
  for (let s = from; s <= to; s += limits.chunkBlocks) bounds.push([s, Math.min(to, s + limits.chunkBlocks - 1)]);
  const reads: Array<Promise<ChunkRead | 'reorged'>> = [];
  const startRead = (i: number) => {
    if (i >= bounds.length || reads[i]) return;
    const [s, e] = bounds[i]!;
    reads[i] = steps.read(s, e);
    reads[i]!.catch(() => {}); // awaited in order below; one never reached is settled before returning
  };
  const result: PipelineResult = { recordedTo: null, reorged: false, found: 0, credited: 0, headers: new Map() };
  let parent = cursorHash;
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
      result.credited += recorded.credited;
      result.recordedTo = chunk.to;
      parent = chunk.last.hash;
      for (const h of chunk.headers) result.headers.set(Number(h.number), h);
    }
  } finally {
    // Nothing of this tick keeps running after it: the reads settle first.
    await Promise.allSettled(reads);
  }
  return result;
}
