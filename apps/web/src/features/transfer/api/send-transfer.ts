import type { TransferResult } from '@coffer/contract/ledger';
import type { StepUpProof } from '@coffer/contract/step-up';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { transferByEmail } from './transfer-by-email';
import { transferByUid } from './transfer-by-uid';
import { queryKeys } from '../../../lib/query-keys';

export type TransferTarget = { email: string } | { uid: number };

export interface SendTransferInput {
  to: TransferTarget;
  currencyId: number;
  amount: string;
  memo?: string;
  idempotencyKey: string;
  /** The second factor when two-factor is on (decision 033). */
  proof: StepUpProof;
}

function send({ to, idempotencyKey, proof, ...fields }: SendTransferInput): Promise<TransferResult> {
  const rest = { ...fields, ...proof };
  return 'email' in to
    ? transferByEmail({ email: to.email, ...rest }, idempotencyKey)
    : transferByUid({ uid: to.uid, ...rest }, idempotencyKey);
}

/** Sends by e-mail or UID; balances and the record lists are stale afterwards. */
export function useSendTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.balances.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.transfers.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.turnover.all });
    },
  });
}
