import { describe, expect, it } from 'vitest';
import { recordIdParam } from './record-id';

describe('recordIdParam', () => {
  it('takes positive safe integers only', () => {
    expect(recordIdParam('42')).toBe(42);
    expect(recordIdParam('9007199254740991')).toBe(9007199254740991);
    for (const bad of [null, undefined, '', '0', '-1', '01', '1.5', '1e3', ' 1', '9007199254740993', '12345678901234567']) {
      expect(recordIdParam(bad), String(bad)).toBeNull();
    }
  });
});
