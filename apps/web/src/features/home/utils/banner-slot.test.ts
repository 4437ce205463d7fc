import { describe, expect, it } from 'vitest';
import { inAppTarget } from './banner-slot';

describe('inAppTarget', () => {
  it('keeps in-app paths', () => {
    expect(inAppTarget('/banner/detail?id=3')).toBe('/banner/detail?id=3');
    expect(inAppTarget('/banner/ranking?id=1')).toBe('/banner/ranking?id=1');
    expect(inAppTarget('/swap')).toBe('/swap');
  });

  it('refuses other sites and non-paths', () => {
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '', 'swap']) {
      expect(inAppTarget(bad)).toBeNull();
    }
  });
});
