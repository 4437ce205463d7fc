import { describe, expect, it } from 'vitest';
import { ROUTE_META, TABS } from '../lib/route-meta';
import enUS from './en-US.json';
import enUSFeatures from './features/en-US.json';
import zhCNFeatures from './features/zh-CN.json';
import zhCN from './zh-CN.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

// The app merges the feature texts into the same namespace (lib/i18n.ts): check them as one.
const merged = (core: Tree, features: Tree) => new Map([...flatten(core), ...flatten(features)]);
const locales = { 'zh-CN': merged(zhCN, zhCNFeatures), 'en-US': merged(enUS, enUSFeatures) };

function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

describe('locale files', () => {
  it('keep the feature texts apart from the core ones (no key in both files)', () => {
    for (const [core, features] of [
      [zhCN, zhCNFeatures],
      [enUS, enUSFeatures],
    ] as const) {
      const inCore = flatten(core);
      expect([...flatten(features).keys()].filter((k) => inCore.has(k))).toEqual([]);
    }
  });

  it('have exactly the same keys', () => {
    const zh = [...locales['zh-CN'].keys()];
    const en = [...locales['en-US'].keys()];
    expect(
      zh.filter((key) => !locales['en-US'].has(key)),
      'keys in zh-CN.json missing from en-US.json',
    ).toEqual([]);
    expect(
      en.filter((key) => !locales['zh-CN'].has(key)),
      'keys in en-US.json missing from zh-CN.json',
    ).toEqual([]);
  });

  it('have no empty texts', () => {
    for (const [name, texts] of Object.entries(locales)) {
      const empty = [...texts].filter(([, text]) => text.trim() === '').map(([key]) => key);
      expect(empty, `empty texts in ${name}`).toEqual([]);
    }
  });

  it('use the same interpolation variables in both languages', () => {
    for (const [key, zh] of locales['zh-CN']) {
      const en = locales['en-US'].get(key);
      if (en !== undefined) expect(variables(zh), key).toEqual(variables(en));
    }
  });

  it('cover every route title and tab label', () => {
    const keys = [...Object.values(ROUTE_META).map((meta) => meta.title), ...TABS.map((tab) => tab.label)];
    for (const key of keys) {
      expect(locales['zh-CN'].has(key), `zh-CN ${key}`).toBe(true);
      expect(locales['en-US'].has(key), `en-US ${key}`).toBe(true);
    }
  });
});
