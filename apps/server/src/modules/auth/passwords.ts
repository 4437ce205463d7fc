import crypto from 'node:crypto';
import { ErrorCode, type Locale } from '@coffer/contract';
import { passwordStrength } from '@coffer/contract/password-strength';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { BizError } from '../../core/errors.ts';

// Algorithm is an ambient const enum (unusable under isolatedModules); 2 is its Argon2id.
const ARGON2ID = 2 as Algorithm;

/**
 * argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane): 10-50 ms of CPU per hash, so
 * the login limits (per IP and per address) keep guessing slow and the server responsive.
 */
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A malformed stored hash counts as a mismatch instead of a 500. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

// A hash of a random secret, made once per process: verifying against it when the e-mail is
// unknown makes a failed login cost the same with or without an account behind the address.
let dummyHash: Promise<string> | undefined;

export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
}

const TOO_COMMON: Record<Locale, string> = {
  'zh-CN': 'password（该密码太常见，很容易被猜到，请换一个）',
  'en-US': 'password (too common, easy to guess; choose another one)',
};

/**
 * 1001 naming `password` for a new password that is common or trivially guessable (the
 * shared rule, @coffer/contract/password-strength). Register and reset call it before they
 * try the e-mail code, so a refused password does not use up a try.
 */
export function assertAcceptablePassword(password: string, locale: Locale): void {
  if (!passwordStrength(password).acceptable) throw new BizError(ErrorCode.INVALID_PARAMS, TOO_COMMON[locale]);
}
