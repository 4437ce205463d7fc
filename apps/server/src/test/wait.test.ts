import { describe, expect, it } from 'vitest';
import { WAIT_TIMEOUT_MS, waitFor } from './wait.ts';

describe('waitFor', () => {
  it('answers the first truthy value the probe gives', async () => {
    let looks = 0;
    expect(await waitFor(() => ++looks >= 3 && `look ${looks}`, 'the third look')).toBe('look 3');
  });

  it('names what it waited for, its limit and the last answer when the limit passes', async () => {
    const miss = await waitFor(() => null, 'a value that never comes', { timeoutMs: 60 }).catch((e: Error) => e);
    expect(String(miss)).toMatch(/timed out after 60 ms \(\d+ looks\) waiting for a value that never comes; last answer: null/);
    const failing = await waitFor(
      () => {
        throw new Error('node down');
      },
      'the node',
      { timeoutMs: 30 },
    ).catch((e: Error) => e);
    expect(String(failing)).toContain('last answer: Error: node down');
    expect(WAIT_TIMEOUT_MS).toBeGreaterThan(0);
  });
});
