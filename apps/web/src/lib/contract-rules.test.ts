import { amountInput, checkAmount } from '@coffer/contract/ledger';
import { amountOrZero, amountString, decimalString, safeText } from '@coffer/contract/common';
import { AMOUNT_MAX_DECIMALS, AMOUNT_MAX_INTEGER_DIGITS, isAmountWithinLimits, isPositiveAmount, isSafeText } from '@coffer/contract/rules';
import { describe, expect, it } from 'vitest';

// The contract has no test runner of its own; its zod-free rules are checked here, with the
// schemas built on them, so a change to one grammar shows in all of them.

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe('the one amount grammar', () => {
  const shapes: [string, boolean][] = [
    ['12.5', true],
    ['0', true],
    ['012.50', true],
    [' 7 ', true],
    ['-1', false],
    ['1e5', false],
    ['1.', false],
    ['.5', false],
    ['1,000', false],
    ['0x10', false],
    ['', false],
  ];

  it('is the same shape for every amount schema and for checkAmount', () => {
    for (const [text, shaped] of shapes) {
      expect(ok(amountInput, text), text).toBe(shaped);
      expect(ok(amountOrZero, text), text).toBe(shaped);
      const checked = checkAmount(text, { decimals: 18 });
      expect(!checked.ok && checked.problem === 'shape', text).toBe(!shaped);
    }
  });

  it('refuses zero only where an amount must be positive', () => {
    for (const zero of ['0', '0.000', '00']) {
      expect(ok(amountOrZero, zero), zero).toBe(true);
      expect(ok(amountString, zero), zero).toBe(false);
      expect(isPositiveAmount(zero), zero).toBe(false);
      expect(checkAmount(zero, { decimals: 6 })).toEqual({ ok: false, problem: 'zero' });
    }
    expect(ok(amountString, '0.000001')).toBe(true);
    expect(isPositiveAmount('-1')).toBe(false);
  });

  it('holds NUMERIC(38,18): 20 digits before the point, 18 after, in schemas and checkAmount alike', () => {
    const widest = `${'9'.repeat(AMOUNT_MAX_INTEGER_DIGITS)}.${'9'.repeat(AMOUNT_MAX_DECIMALS)}`;
    expect(ok(amountString, widest)).toBe(true);
    expect(checkAmount(widest, { decimals: 18 }).ok).toBe(true);
    const tooLarge = `1${'0'.repeat(AMOUNT_MAX_INTEGER_DIGITS)}`;
    expect(ok(amountString, tooLarge)).toBe(false);
    expect(checkAmount(tooLarge, { decimals: 18 })).toEqual({ ok: false, problem: 'too_large' });
    const tooFine = `0.${'0'.repeat(AMOUNT_MAX_DECIMALS)}1`;
    expect(ok(amountString, tooFine)).toBe(false);
    expect(isAmountWithinLimits(tooFine)).toBe(false);
    // Leading and trailing zeros do not count, as the ledger stores neither.
    expect(isAmountWithinLimits(`000${widest}000`)).toBe(true);
  });

  it('answers signed values only where the ledger does', () => {
    expect(decimalString.safeParse('-12.5').success).toBe(true);
    expect(ok(amountOrZero, '-12.5')).toBe(false);
  });
});

describe('text rules', () => {
  it('are the ones safeText applies', () => {
    const samples = ['plain', 'a\tb', 'a\nb', 'x\u202ey', '\u200b', 'a\u2028b', 'tag\udb40\udc41', 'lone\ud800', '😀'];
    for (const text of samples) {
      expect(ok(safeText({ max: 100 }), text), JSON.stringify(text)).toBe(isSafeText(text));
      expect(ok(safeText({ max: 100, multiline: true }), text), JSON.stringify(text)).toBe(isSafeText(text, true));
    }
    expect(isSafeText('a\nb', true)).toBe(true);
    expect(isSafeText('a\nb')).toBe(false);
  });
});

// The zod-free checks a signed-in page's first screen uses (decision 069) agree with the schemas
// the server parses the same fields with.
describe('the zod-free rules and their schemas', () => {
  it('accept the same second-factor codes', async () => {
    const { secondFactorCode } = await import('@coffer/contract/two-factor');
    const { isSecondFactorCode } = await import('@coffer/contract/rules');
    for (const code of [
      '123456',
      ' 123456 ',
      'k7m2p-x9q4r',
      'K7M2PX9Q4R',
      '12345',
      '1234567',
      'k7m2p-x9q41',
      '',
      '12 3456',
      'k7m2p_x9q4r',
    ]) {
      expect(isSecondFactorCode(code), code).toBe(ok(secondFactorCode, code));
    }
  });

  it('accept the same nicknames', async () => {
    const { nickname } = await import('@coffer/contract/auth');
    const { isSafeLine, NICKNAME_MAX } = await import('@coffer/contract/rules');
    for (const name of [
      'Ann',
      '  Ann  ',
      '',
      '   ',
      'a'.repeat(NICKNAME_MAX),
      `${'a'.repeat(NICKNAME_MAX)} `,
      'a'.repeat(NICKNAME_MAX + 1),
      'a\u0000b',
      'a\u202eb',
      '张三',
    ]) {
      expect(isSafeLine(name, { min: 1, max: NICKNAME_MAX }), JSON.stringify(name)).toBe(ok(nickname, name));
    }
  });

  it('name the same withdrawal states and statement types', async () => {
    const chain = await import('@coffer/contract/chain');
    const turnover = await import('@coffer/contract/turnover');
    const rules = await import('@coffer/contract/rules');
    expect(chain.withdrawStatus.options).toEqual([...rules.WITHDRAW_STATUSES]);
    expect(chain.WITHDRAW_FINAL).toBe(rules.WITHDRAW_FINAL);
    expect(turnover.TURNOVER_TYPES).toBe(rules.TURNOVER_TYPES);
    for (const status of [...rules.WITHDRAW_FINAL, ...rules.WITHDRAW_CANCELLABLE]) expect(rules.WITHDRAW_STATUSES).toContain(status);
  });
});
