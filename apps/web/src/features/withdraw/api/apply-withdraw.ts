import type { WithdrawApplyBody, WithdrawApplyData } from '@coffer/contract/chain';
import { ErrorCode } from '@coffer/contract/errors';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';
import { IDEMPOTENCY_HEADER } from '@coffer/api-client/idempotency';
import { STEP_UP_ERROR_CODES } from '../../../lib/step-up';
import { withdrawalDetailKey } from '../../../lib/wallet/chain-keys';
import { queryKeys } from '../../../lib/query-keys';

/** Refusals of a withdrawal shown under the field they concern (decision 021); others pop up. */
export const WITHDRAW_FIELD_ERRORS: FieldErrors<'address' | 'amount' | 'code' | 'totp'> = {
  ...Object.fromEntries(STEP_UP_ERROR_CODES.map((code) => [code, 'totp' as const])),
  [ErrorCode.INVALID_ADDRESS]: 'address',
  [ErrorCode.UNSPENDABLE_ADDRESS]: 'address',
  [ErrorCode.INSUFFICIENT_BALANCE]: 'amount',
  [ErrorCode.AMOUNT_OUT_OF_RANGE]: 'amount',
  [ErrorCode.LIMIT_EXCEEDED]: 'amount',
  [ErrorCode.WRONG_EMAIL_CODE]: 'code',
  [ErrorCode.TOO_MANY_WRONG_CODES]: 'code',
};

/** The fee quote ran out, was spent or is not this network's: the form renews it (no pop-up). */
export const FEE_QUOTE_ERROR_CODES: readonly number[] = [
  ErrorCode.FEE_QUOTE_EXPIRED,
  ErrorCode.FEE_QUOTE_USED,
  ErrorCode.FEE_QUOTE_UNKNOWN,
  ErrorCode.FEE_QUOTE_OTHER_NETWORK,
];

/** POST /api/withdraw/apply with the submit's Idempotency-Key; a replay answers the first record (replayed: true). */
export function applyWithdraw(body: WithdrawApplyBody, idempotencyKey: string): Promise<WithdrawApplyData> {
  return apiPost<WithdrawApplyData>('/withdraw/apply', body, {
    headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
    fieldCodes: [...fieldCodesOf(WITHDRAW_FIELD_ERRORS), ...FEE_QUOTE_ERROR_CODES],
  });
}

export interface ApplyWithdrawInput {
  body: WithdrawApplyBody;
  idempotencyKey: string;
}

/** Holds amount + fee at once: balances, limits and the withdrawal lists are stale afterwards. */
export function useApplyWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: ApplyWithdrawInput) => applyWithdraw(body, idempotencyKey),
    onSuccess: ({ replayed: _replayed, ...record }) => {
      queryClient.setQueryData(withdrawalDetailKey(record.id), record);
      void queryClient.invalidateQueries({ queryKey: queryKeys.balances.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.withdrawals.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.turnover.all });
    },
  });
}
