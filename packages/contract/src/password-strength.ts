import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/**
 * The rule for new passwords (register, reset), shared by the server, which refuses, and the
 * web app, which shows it while typing. Not exported from the package index: the dictionary
 * weighs about 200 kB, so the web app imports this module lazily on the two pages that need it.
 *
 * A password is refused when it is in the common-password list of @zxcvbn-ts/language-common
 * (49,233 leaked passwords, compared case-insensitively: `12345678`, `password`, `Passw0rd`) or
 * when zxcvbn scores it 0 (under 10^3 guesses: `aaaaaaaa`, `abcdefgh`, keyboard rows).
 * Passwords already set are not judged again: sign-in takes any password.
 */

export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export interface PasswordStrength {
  /** zxcvbn's 0 (too guessable) to 4 (very unguessable). */
  score: PasswordScore;
  /** In the common-password list. */
  common: boolean;
  /** What the server accepts: not common and score above 0. */
  acceptable: boolean;
}

/** Longer input costs more to score; the contract caps passwords at 128 anyway. */
const MAX_SCORED_LENGTH = 128;

let factory: ZxcvbnFactory | undefined;
let commonPasswords: Set<string> | undefined;

function load() {
  factory ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  commonPasswords ??= new Set(dictionary['passwords-common']);
  return { factory, commonPasswords };
}

export function passwordStrength(password: string): PasswordStrength {
  const { factory, commonPasswords } = load();
  const common = commonPasswords.has(password.toLowerCase());
  const score = (common ? 0 : factory.check(password.slice(0, MAX_SCORED_LENGTH)).score) as PasswordScore;
  return { score, common, acceptable: !common && score > 0 };
}
