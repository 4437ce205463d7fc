import type { WithdrawRecord } from '@coffer/contract/chain';
import { ErrorCode } from '@coffer/contract/errors';
import type { Currency } from '@coffer/contract/ledger';
import type { RefObject } from 'react';
import { isApiError } from '@coffer/api-client/api-error';
import { fieldErrorOf } from '../../../lib/form-errors';
import { newIdempotencyKey } from '@coffer/api-client/idempotency';
import type { useStepUp } from '../../../lib/step-up';
import { FEE_QUOTE_ERROR_CODES, useApplyWithdraw, WITHDRAW_FIELD_ERRORS } from '../api/apply-withdraw';
import type { WithdrawSummary } from '../components/withdraw-confirm';
import type { FeeQuote } from './use-fee-quote';

export interface WithdrawSubmitInput {
  summary: WithdrawSummary | null;
  currency: Currency | undefined;
  code: string;
  quoteId: number | undefined;
  idempotencyKey: RefObject<string | null>;
  stepUp: ReturnType<typeof useStepUp>;
  feeQuote: FeeQuote;
  /** What a refusal makes stale: the networks (frozen, unavailable), the hold, the limits. */
  refetch: { networks: () => unknown; hold: () => unknown; limits: () => unknown };
  closeSummary: () => void;
  done: (record: WithdrawRecord) => void;
  /** The server refused one field (address, amount, code or the second factor's): its message goes under it. */
  refusedField: (field: string, message: string) => void;
}

/**
 * The confirmed request, and what each outcome does to the form: a success shows the record;
 * a refused second factor asks again under its field; a transport failure keeps the sheet and
 * the key; a spent quote gets a new one with the sheet open; any other refusal closes the
 * sheet, shows a field's message under it, and refreshes what it made stale.
 */
export function useWithdrawSubmit(input: WithdrawSubmitInput) {
  const apply = useApplyWithdraw();
  const { summary, currency, code, quoteId, idempotencyKey, stepUp, feeQuote, refetch } = input;

  const submit = async () => {
    if (!summary || !currency || !idempotencyKey.current || !quoteId) return;
    try {
      const proof = await stepUp.proof();
      const record = await apply.mutateAsync({
        body: {
          currencyId: currency.id,
          networkId: summary.network.id,
          address: summary.address,
          amount: summary.amount,
          code,
          quoteId,
          ...proof,
        },
        idempotencyKey: idempotencyKey.current,
      });
      idempotencyKey.current = null;
      input.done(record);
      stepUp.reset();
    } catch (error) {
      // The second factor was missing, wrong or not confirmed: asked again under its field.
      if (stepUp.refuse(error)) {
        idempotencyKey.current = null;
        input.closeSummary();
        return;
      }
      // A transport failure keeps the sheet and the key: trying again cannot withdraw twice.
      if (!isApiError(error)) return;
      idempotencyKey.current = null;
      // The quote ran out or was spent: a new one, the sheet stays open and says if the fee moved.
      if (FEE_QUOTE_ERROR_CODES.includes(error.code)) {
        idempotencyKey.current = newIdempotencyKey();
        void feeQuote.quote.refetch();
        return;
      }
      input.closeSummary();
      const inline = fieldErrorOf(error, WITHDRAW_FIELD_ERRORS);
      if (inline) input.refusedField(inline.field, inline.message);
      if (error.code === ErrorCode.CURRENCY_UNAVAILABLE || error.code === ErrorCode.PAYOUTS_FROZEN) void refetch.networks();
      if (error.code === ErrorCode.WITHDRAWAL_HOLD) void refetch.hold();
      void refetch.limits();
    }
  };

  return { submit, pending: apply.isPending };
}
