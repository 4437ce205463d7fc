import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys';

type Key = readonly unknown[];
type Entry = Key | ((...args: never[]) => Key) | { [name: string]: Entry };

/** Every key an entry makes, with sample arguments for the key functions. */
function keysOf(entry: Entry): Key[] {
  if (Array.isArray(entry)) return [entry as Key];
  if (typeof entry === 'function') return [(entry as (...args: unknown[]) => Key)(7, 'en-US')];
  return Object.values(entry as Record<string, Entry>).flatMap(keysOf);
}

const startsWith = (key: Key, prefix: Key) => prefix.every((part, i) => key[i] === part);

describe('queryKeys', () => {
  it('keeps each family under its own prefix, so invalidating `all` reaches lists and details', () => {
    for (const [name, family] of Object.entries(queryKeys)) {
      if (Array.isArray(family) || !('all' in family)) continue;
      for (const key of keysOf(family as Entry)) {
        expect(startsWith(key, family.all as Key), `${name}: ${JSON.stringify(key)}`).toBe(true);
      }
    }
  });

  it('gives no two resources the same key', () => {
    const seen = new Map<string, string>();
    for (const [name, family] of Object.entries(queryKeys)) {
      for (const key of keysOf(family as Entry)) {
        const text = JSON.stringify(key);
        if (seen.has(text) && seen.get(text) !== name) throw new Error(`${text} in ${seen.get(text)} and ${name}`);
        seen.set(text, name);
      }
    }
    expect(seen.size).toBeGreaterThan(20);
  });

  it('puts the language last on translated content, so a switch fetches it again', () => {
    expect(queryKeys.notices.list('zh-CN').at(-1)).toBe('zh-CN');
    expect(queryKeys.help.article(3, 'en-US').at(-1)).toBe('en-US');
    expect(queryKeys.banners.detail(3, 'en-US')).not.toEqual(queryKeys.banners.detail(3, 'zh-CN'));
  });
});
