import { create } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrPath } from './qr-path';

/** Paints a path back onto a grid, to compare with the modules it came from. */
function paint(path: string, size: number): number[] {
  const grid = new Array<number>(size * size).fill(0);
  for (const match of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
    const [x, y, w] = [match[1], match[2], match[3]].map((v) => Number.parseInt(v!, 10)) as [number, number, number];
    for (let i = 0; i < w; i += 1) grid[y * size + x + i] = 1;
  }
  return grid;
}

describe('qrPath', () => {
  it('draws runs of dark modules as rectangles', () => {
    const data = [1, 1, 0, 0, 1, 0, 1, 1, 1];
    expect(qrPath({ size: 3, data })).toBe('M0 0h2v1h-2zM1 1h1v1h-1zM0 2h3v1h-3z');
    expect(qrPath({ size: 2, data: [0, 0, 0, 0] })).toBe('');
  });

  it('reproduces every module of a real address symbol', () => {
    const { modules } = create('0x52908400098527886E0F7030069857D2E4169EE7', { errorCorrectionLevel: 'M' });
    const expected = Array.from(modules.data, (v) => (v ? 1 : 0));
    expect(paint(qrPath(modules), modules.size)).toEqual(expected);
  });
});
