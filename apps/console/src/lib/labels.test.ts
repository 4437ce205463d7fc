import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACTIVITY_STATUSES } from '@coffer/contract/activity';
import { DEPOSIT_STATUSES, WITHDRAW_STATUSES } from '@coffer/contract/chain';
import { TURNOVER_TYPES } from '@coffer/contract/turnover';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { LABEL_GROUPS, type LabelGroup, labelFor } from './labels';

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const SERVER = path.join(ROOT, 'apps/server');

function filesUnder(dir: string, ext: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(full, ext, out);
    else if (entry.name.endsWith(ext) && !entry.name.includes('.test.')) out.push(full);
  }
  return out;
}
const read = (files: string[]) => files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
const all = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!);

/** Every journal entry kind the SQL functions write (ledger_open_entry('x', ...), the deposit credit's insert). */
function entryKinds(): string[] {
  const sql = read(filesUnder(path.join(SERVER, 'sql/functions'), '.sql'));
  return [
    ...all(sql, /ledger_open_entry\(\s*'([a-z_]+)'/g),
    ...all(sql, /INSERT INTO journal_entries \([^)]*kind[^)]*\)\s*SELECT [a-z_]+, '([a-z_]+)'/g),
  ];
}

/** Every audit action the server records: `action: '...'`, the help pages' audit(q, operator, '...'), the SQL functions' coffer_operator_action. */
function auditActions(): string[] {
  const ts = read(filesUnder(path.join(SERVER, 'src'), '.ts'));
  const sql = read(filesUnder(path.join(SERVER, 'sql/functions'), '.sql'));
  const fromTemplate = ['withdrawal.approve', 'withdrawal.reject']; // `withdrawal.${decision}`
  return [
    ...all(ts, /\baction: '([a-z_]+(?:\.[a-z_]+)+)'/g),
    ...all(ts, /\baction: [a-z]+ \? '([a-z_.]+)' : '[a-z_.]+'/g),
    ...all(ts, /\baction: [a-z]+ \? '[a-z_.]+' : '([a-z_.]+)'/g),
    ...all(ts, /\baudit\(q, [a-z]+, '([a-z_.]+)'/g),
    ...all(sql, /coffer_operator_action\([^']*'([a-z_]+(?:\.[a-z_]+)+)'/g),
    ...fromTemplate,
  ];
}

const texts = { 'zh-CN': zhCN, 'en-US': enUS };
const ts: Record<string, TFunction> = {};

beforeAll(async () => {
  for (const [lng, translation] of Object.entries(texts)) {
    const instance = i18next.createInstance();
    await instance.init({ lng, resources: { [lng]: { translation } }, interpolation: { escapeValue: false } });
    ts[lng] = instance.t;
  }
});

describe('record types and statuses in words', () => {
  const cases: [LabelGroup, () => readonly string[]][] = [
    ['entryKind', () => [...entryKinds(), ...TURNOVER_TYPES]],
    ['withdrawStatus', () => WITHDRAW_STATUSES],
    ['depositStatus', () => DEPOSIT_STATUSES],
    ['activityStatus', () => ACTIVITY_STATUSES],
    ['auditAction', auditActions],
    ['account', () => ['available', 'frozen']],
    ['userStatus', () => ['active', 'disabled']],
    ['role', () => ['user', 'operator']],
    ['adjustStatus', () => ['pending', 'approved', 'rejected']],
  ];

  it('finds the codes it checks (the scans of the server are not empty)', () => {
    expect(entryKinds()).toEqual(expect.arrayContaining(['transfer', 'swap', 'deposit', 'withdraw_settle', 'adjustment', 'gas']));
    expect(auditActions()).toEqual(expect.arrayContaining(['user.sign_out', 'ledger.adjust', 'help.article.delete', 'swap.pair.update']));
    expect(cases.map(([group]) => group).sort()).toEqual([...LABEL_GROUPS].sort());
  });

  for (const [group, codes] of cases) {
    it(`every ${group} the server or the contract can return has words in both languages`, () => {
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const missing = [...new Set(codes())].filter((code) => labelFor(ts[lang]!, group, code) === code);
        expect(missing, `${group} without a ${lang} label`).toEqual([]);
      }
    });
  }

  it("uses the phone app's words for the statement types and statuses it also shows", async () => {
    const web = {
      'zh-CN': JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/web/src/locales/features/zh-CN.json'), 'utf8')),
      'en-US': JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/web/src/locales/features/en-US.json'), 'utf8')),
    };
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const t = ts[lang]!;
      for (const type of TURNOVER_TYPES) expect(labelFor(t, 'entryKind', type)).toBe(web[lang].statement.types[type]);
      for (const s of WITHDRAW_STATUSES) expect(labelFor(t, 'withdrawStatus', s)).toBe(web[lang].chain.withdrawStatus[s]);
      for (const s of DEPOSIT_STATUSES) expect(labelFor(t, 'depositStatus', s)).toBe(web[lang].chain.depositStatus[s]);
    }
  });

  it('shows an unknown code as itself, and reads a dotted code as one key', () => {
    const en = ts['en-US']!;
    expect(labelFor(en, 'entryKind', 'withdraw_settle')).toBe('Withdrawal (sent)');
    expect(labelFor(ts['zh-CN']!, 'entryKind', 'withdraw_settle')).toBe('提现（已出账）');
    expect(labelFor(en, 'auditAction', 'user.sign_out')).toBe("User's sessions ended");
    expect(labelFor(en, 'entryKind', 'brand_new_kind')).toBe('brand_new_kind');
    expect(labelFor(en, 'auditAction', 'user')).toBe('user');
    expect(labelFor(en, 'entryKind', 'toString')).toBe('toString');
    expect(labelFor(en, 'entryKind', '')).toBe('');
  });
});
