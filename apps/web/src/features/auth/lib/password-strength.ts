import type { PasswordStrength } from '@coffer/contract/password-strength';

type Check = (password: string) => PasswordStrength;

let loading: Promise<Check> | undefined;

/**
 * The shared password rule with its ~200 kB dictionary, fetched only by the pages that set a
 * password (register, reset), once. A failed fetch is retried on the next call.
 */
export function loadPasswordStrength(): Promise<Check> {
  loading ??= import('@coffer/contract/password-strength').then(
    (m) => m.passwordStrength,
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}
