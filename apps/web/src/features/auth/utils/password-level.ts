import type { PasswordStrength } from '@coffer/contract/password-strength';

/** What the strength meter says; tooCommon is exactly what the server refuses (1001). */
export type PasswordLevel = 'tooCommon' | 'weak' | 'fair' | 'strong' | 'veryStrong';

const BY_SCORE: readonly PasswordLevel[] = ['tooCommon', 'weak', 'fair', 'strong', 'veryStrong'];

export function passwordLevel(strength: PasswordStrength): PasswordLevel {
  return strength.acceptable ? (BY_SCORE[strength.score] ?? 'weak') : 'tooCommon';
}

/** How many of the meter's 4 segments are filled. */
export function filledSegments(level: PasswordLevel): number {
  return { tooCommon: 1, weak: 1, fair: 2, strong: 3, veryStrong: 4 }[level];
}
