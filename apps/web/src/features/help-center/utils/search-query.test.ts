import { helpListQuery } from '@coffer/contract/content';
import { describe, expect, it } from 'vitest';
import { HELP_QUERY_MAX, searchQuery } from './search-query';

describe('searchQuery', () => {
  it('trims and drops empty searches', () => {
    expect(searchQuery('  deposit ')).toBe('deposit');
    expect(searchQuery('   ')).toBeUndefined();
    expect(searchQuery('')).toBeUndefined();
  });

  it('removes what the server refuses and cuts to the limit, so every q it sends is accepted', () => {
    const samples = [
      'a\tb',
      'x\u202ey',
      '\u200bzero',
      'a\u2028b',
      'tag\udb40\udc41',
      '\u061cmark',
      'é'.repeat(80),
      `${' '.repeat(49)}ab`,
      '充值 地址',
      `${'a'.repeat(49)}😀`,
    ];
    for (const sample of samples) {
      const q = searchQuery(sample);
      expect(helpListQuery.safeParse({ q }).success, sample).toBe(true);
    }
    expect(searchQuery('a\tb')).toBe('ab');
    expect(searchQuery('é'.repeat(80))).toHaveLength(HELP_QUERY_MAX);
  });
});
