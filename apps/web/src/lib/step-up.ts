import { ErrorCode } from '@coffer/contract/errors';
import type { PasskeyItem, PasskeyOptionsData } from '@coffer/contract/passkeys';
import type { StepUpProof, StepUpTokenData } from '@coffer/contract/step-up';
import { isSecondFactorCode } from '@coffer/contract/rules';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGet, apiPost } from './api-client';
import { isApiError } from '@coffer/api-client/api-error';
import { queryKeys } from './query-keys';
import { browserWebAuthn } from './sign-in';

/*
 * The step-up policy on the phone (decision 033): with two-factor on, a transfer or a withdrawal
 * (and a swap when the user opted in) carries a second factor, asked inline under the form's
 * fields: an authenticator or recovery code, or, for a user with passkeys, an assertion made
 * when the form is sent.
 */

/** The refusals that concern the second factor: shown under its field, not popped up. */
export const STEP_UP_ERROR_CODES = [
  ErrorCode.SECOND_FACTOR_REQUIRED,
  ErrorCode.WRONG_SECOND_FACTOR,
  ErrorCode.SECOND_FACTOR_EXPIRED,
  ErrorCode.PASSKEY_FAILED,
] as const;

/** The browser's passkey ceremony did not finish (cancelled, timed out, no authenticator). */
export class PasskeyCeremonyError extends Error {}

/** A single-use token from one of the user's passkeys (the browser asks for the screen lock). */
export async function passkeyStepUpToken(): Promise<string> {
  const { startAuthentication } = await browserWebAuthn();
  const start = await apiPost<PasskeyOptionsData>('/stepup/passkey/options', undefined, { fieldCodes: [...STEP_UP_ERROR_CODES] });
  let response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    response = await startAuthentication({ optionsJSON: start.options as never });
  } catch (e) {
    throw new PasskeyCeremonyError(e instanceof Error ? e.name : 'passkey');
  }
  const done = await apiPost<StepUpTokenData>(
    '/stepup/passkey',
    { challenge: start.challenge, response },
    { fieldCodes: [...STEP_UP_ERROR_CODES] },
  );
  return done.stepUpToken;
}

export type StepUpMode = 'code' | 'passkey';

/**
 * The second factor of one form: its code, whether the user chose a passkey instead, and the
 * message under the field. `asked` comes from the signed-in user (two-factor on, and for
 * swaps the opt-in); when false the form sends no proof and shows nothing, until the server
 * answers that a factor is needed (2006: the copy of the user was older than the setting).
 */
export function useStepUp(asked: boolean) {
  const { t } = useTranslation();
  const [askedByServer, setAskedByServer] = useState(false);
  const required = asked || askedByServer;
  const [code, setCodeState] = useState('');
  const [mode, setMode] = useState<StepUpMode>('code');
  const [serverError, setServerError] = useState<string | null>(null);
  const passkeys = useQuery({
    queryKey: queryKeys.passkeys,
    queryFn: () => apiGet<PasskeyItem[]>('/passkeys'),
    enabled: required,
  });
  const localError = required && mode === 'code' && !isSecondFactorCode(code) ? t('twoFactor.codeRequired') : null;

  return {
    required,
    code,
    mode,
    hasPasskeys: (passkeys.data?.length ?? 0) > 0,
    setCode(value: string) {
      setCodeState(value);
      setServerError(null);
    },
    choose(next: StepUpMode) {
      setMode(next);
      setServerError(null);
    },
    /** The message under the field: the server's refusal, else (once `shown`) what is missing. */
    error: (shown: boolean) => serverError ?? (shown ? localError : null),
    ready: localError === null,
    /** What the request carries: nothing, the code, or a fresh passkey token (asked now). */
    async proof(): Promise<StepUpProof> {
      if (!required) return {};
      if (mode === 'passkey') return { stepUpToken: await passkeyStepUpToken() };
      return { totp: code.trim() };
    },
    /**
     * A refusal of the factor (or a passkey ceremony that did not finish): shown under the
     * field, a used code cleared. Returns whether it was one.
     */
    refuse(error: unknown): boolean {
      if (error instanceof PasskeyCeremonyError) {
        setServerError(t('stepUp.passkeyFailed'));
        return true;
      }
      if (!isApiError(error) || !(STEP_UP_ERROR_CODES as readonly number[]).includes(error.code)) return false;
      if (error.code === ErrorCode.SECOND_FACTOR_REQUIRED) setAskedByServer(true);
      setServerError(mode === 'passkey' && error.code !== ErrorCode.SECOND_FACTOR_REQUIRED ? t('stepUp.passkeyFailed') : error.message);
      if (error.code === ErrorCode.WRONG_SECOND_FACTOR) setCodeState('');
      return true;
    },
    reset() {
      setCodeState('');
      setServerError(null);
    },
  };
}

export type StepUp = ReturnType<typeof useStepUp>;
