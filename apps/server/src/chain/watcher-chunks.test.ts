import { describe, expect, it } from 'vitest';
import { chunkBounds, pipelineCatchUp } from './watcher-pipeline.ts';
import type { ChunkRead } from './watcher-scan.ts';

const header = (n: number) => ({ number: BigInt(n), hash: `h${n}`, parentHash: `h${n - 1}` });
const chunk = (from: number, to: number): ChunkRead => ({ from, to, deposits: [], headers: [], first: header(from), last: header(to) });

describe('catch-up chunks', () => {
  it('joins a short last chunk to the one before, and only a short one', () => {
    expect(chunkBounds(6, 2008, 1000)).toEqual([
      [6, 1005],
      [1006, 2008],
    ]);
    expect(chunkBounds(6, 2105, 1000)).toEqual([
      [6, 1005],
      [1006, 2005],
      [2006, 2105],
    ]);
    expect(chunkBounds(1, 50, 1000)).toEqual([[1, 50]]);
    expect(chunkBounds(1, 25, 10)).toEqual([
      [1, 10],
      [11, 20],
      [21, 25],
    ]);
  });

  it('a credit still waiting when a later chunk is recorded goes to that height: one credit for both', async () => {
    const credited: number[] = [];
    let release = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const run = await pipelineCatchUp(
      1,
      40,
      'h0',
      {
        read: async (s, e) => chunk(s, e),
        record: async () => ({ found: 0 }),
        credit: async (height) => {
          credited.push(height);
          if (credited.length === 1) await firstHeld; // the first credit is slow: the records run ahead
          return 1;
        },
      },
      { chunkBlocks: 10, chunksAhead: 1 },
    );
    release();
    expect(await run.credits).toBe(2);
    // 10 ran; 20 and 30 were replaced while waiting; 40 covers them.
    expect(credited).toEqual([10, 40]);
    expect(run.recordedTo).toBe(40);
  });
});
