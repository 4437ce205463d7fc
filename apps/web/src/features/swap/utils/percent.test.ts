import { describe, expect, it } from 'vitest';
import { percentFromBps } from './percent';

describe('percentFromBps', () => {
  it('writes basis points as a percentage without trailing zeros', () => {
    expect(percentFromBps(30)).toBe('0.3%');
    expect(percentFromBps(5)).toBe('0.05%');
    expect(percentFromBps(100)).toBe('1%');
    expect(percentFromBps(125)).toBe('1.25%');
    expect(percentFromBps(0)).toBe('0%');
    expect(percentFromBps(10000)).toBe('100%');
  });
});
