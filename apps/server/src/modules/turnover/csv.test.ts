import { readFileSync } from 'node:fs';
import { TURNOVER_TYPES } from '@coffer/contract';
import { describe, expect, it } from 'vitest';
import { TYPE_LABELS } from './csv.ts';

/** The phone app's statement type names (apps/web/src/locales/features/<locale>.json). */
function webTypeLabels(locale: 'zh-CN' | 'en-US'): Record<string, string> {
  const url = new URL(`../../../../web/src/locales/features/${locale}.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { statement: { types: Record<string, string> } }).statement.types;
}

describe('CSV type names', () => {
  it.each(['zh-CN', 'en-US'] as const)('are the words the phone app shows (%s)', (locale) => {
    const web = webTypeLabels(locale);
    for (const type of TURNOVER_TYPES) expect(TYPE_LABELS[locale][type], type).toBe(web[type]);
  });
});
