import { describe, expect, it } from 'vitest';
import { browserLanguage, initialLanguage } from './language';
import { languageKey } from './session';

const storage = (entries: Record<string, string> = {}) => ({ getItem: (key: string) => entries[key] ?? null });

describe('the console language', () => {
  it('follows the browser when the operator has not chosen: the first Chinese or English preference decides', () => {
    expect(browserLanguage(['zh-CN', 'en-US'])).toBe('zh-CN');
    expect(browserLanguage(['zh-TW'])).toBe('zh-CN');
    expect(browserLanguage(['zh'])).toBe('zh-CN');
    expect(browserLanguage(['en-GB', 'zh-CN'])).toBe('en-US');
    expect(browserLanguage(['en'])).toBe('en-US');
    expect(browserLanguage(['fr-FR', 'zh-HK'])).toBe('zh-CN');
    expect(browserLanguage(['fr-FR', 'de'])).toBe('en-US');
    expect(browserLanguage([])).toBe('en-US');
    // "zhx" or "enx" are not Chinese or English.
    expect(browserLanguage(['zhx', 'eno', 'ZH-cn'])).toBe('zh-CN');
  });

  it("keeps the operator's remembered choice over the browser's, and ignores a stored value it does not know", () => {
    expect(initialLanguage(storage({ [languageKey]: 'en-US' }), ['zh-CN'])).toBe('en-US');
    expect(initialLanguage(storage({ [languageKey]: 'zh-CN' }), ['en-US'])).toBe('zh-CN');
    expect(initialLanguage(storage(), ['en-US'])).toBe('en-US');
    expect(initialLanguage(storage(), ['zh-CN'])).toBe('zh-CN');
    expect(initialLanguage(storage({ [languageKey]: 'fr-FR' }), ['zh-CN'])).toBe('zh-CN');
    expect(initialLanguage(storage({ [languageKey]: '' }), ['en-AU'])).toBe('en-US');
  });
});
