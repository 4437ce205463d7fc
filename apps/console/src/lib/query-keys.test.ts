import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys';

type Key = readonly unknown[];
type Entry = Key | ((...args: never[]) => Key) | { [name: string]: Entry };

/** Every key an entry makes, with a sample argument for the key functions. */
function keysOf(entry: Entry): Key[] {
  if (Array.isArray(entry)) return [entry as Key];
  if (typeof entry === 'function') return [(entry as (arg: unknown) => Key)({ page: 1 })];
  return Object.values(entry as Record<string, Entry>).flatMap(keysOf);
}

const startsWith = (key: Key, prefix: Key) => prefix.every((part, i) => key[i] === part);

describe('the console query keys', () => {
  it('keeps each family under its own prefix, so invalidating `all` reaches its pages and details', () => {
    for (const [name, family] of Object.entries(queryKeys)) {
      if (Array.isArray(family) || typeof family === 'function') continue;
      for (const key of keysOf(family as Entry)) {
        expect(startsWith(key, (family as { all: Key }).all), `${name}: ${JSON.stringify(key)}`).toBe(true);
      }
    }
  });

  it('gives no two resources the same key, and one user page none of the user list', () => {
    const seen = new Map<string, string>();
    for (const [name, family] of Object.entries(queryKeys)) {
      for (const key of keysOf(family as Entry)) {
        expect(key[0]).toBe('console');
        const text = JSON.stringify(key);
        if (seen.has(text) && seen.get(text) !== name) throw new Error(`${text} in ${seen.get(text)} and ${name}`);
        seen.set(text, name);
      }
    }
    expect(startsWith(queryKeys.user.detail(7), queryKeys.users.all)).toBe(false);
    expect(seen.size).toBeGreaterThan(20);
  });
});
