import { describe, expect, it } from 'vitest';
import { isAppLanguage, pickLanguage } from './language';

describe('pickLanguage', () => {
  it('prefers the stored language', () => {
    expect(pickLanguage('en-US', ['zh-CN'])).toBe('en-US');
    expect(pickLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
  });

  it('ignores a stored value that is not a supported language', () => {
    expect(pickLanguage('fr-FR', ['zh-CN'])).toBe('zh-CN');
    expect(pickLanguage('', ['zh-CN'])).toBe('zh-CN');
  });

  it('matches browser languages exactly, case-insensitively', () => {
    expect(pickLanguage(null, ['en-us'])).toBe('en-US');
    expect(pickLanguage(undefined, ['ZH-CN', 'en-US'])).toBe('zh-CN');
  });

  it('takes an exact match anywhere in the list before a prefix match', () => {
    expect(pickLanguage(null, ['zh-TW', 'en-US'])).toBe('en-US');
  });

  it('falls back to a prefix match', () => {
    expect(pickLanguage(null, ['zh-TW'])).toBe('zh-CN');
    expect(pickLanguage(null, ['zh'])).toBe('zh-CN');
    expect(pickLanguage(null, ['en-GB'])).toBe('en-US');
    expect(pickLanguage(null, ['fr-FR', 'zh-HK'])).toBe('zh-CN');
  });

  it('ends with English when nothing matches', () => {
    expect(pickLanguage(null, ['fr-FR', 'de'])).toBe('en-US');
    expect(pickLanguage(null, [])).toBe('en-US');
  });

  it('recognises only the two interface languages', () => {
    expect(isAppLanguage('zh-CN')).toBe(true);
    expect(isAppLanguage('en-US')).toBe(true);
    expect(isAppLanguage('en')).toBe(false);
    expect(isAppLanguage(1)).toBe(false);
  });
});
