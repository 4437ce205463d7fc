import { passwordStrength } from '@coffer/contract/password-strength';
import { describe, expect, it } from 'vitest';
import { filledSegments, passwordLevel } from './password-level';

describe('password strength levels of the register and reset pages', () => {
  it('says "too common" exactly for what the server refuses', () => {
    for (const p of ['12345678', 'password', 'Passw0rd', 'qwertyuiop', 'aaaaaaaa']) {
      expect(passwordLevel(passwordStrength(p)), p).toBe('tooCommon');
    }
    for (const p of ['password-1', 'p4ssword-for-tests']) {
      expect(passwordLevel(passwordStrength(p)), p).not.toBe('tooCommon');
    }
  });

  it('grows with the score and fills 1 to 4 segments', () => {
    expect(passwordLevel({ score: 1, common: false, acceptable: true })).toBe('weak');
    expect(passwordLevel({ score: 2, common: false, acceptable: true })).toBe('fair');
    expect(passwordLevel({ score: 3, common: false, acceptable: true })).toBe('strong');
    expect(passwordLevel({ score: 4, common: false, acceptable: true })).toBe('veryStrong');
    expect(['tooCommon', 'weak', 'fair', 'strong', 'veryStrong'].map((l) => filledSegments(l as never))).toEqual([1, 1, 2, 3, 4]);
    expect(passwordLevel(passwordStrength('tangerine-Otter-piano-41'))).toMatch(/strong|veryStrong/);
  });
});
