import type { Network } from '@coffer/contract/chain';
import type { Currency } from '@coffer/contract/ledger';
import { useRef, useState } from 'react';

export type WithdrawField = 'address' | 'amount' | 'code';
/** Messages the server gave for one field, shown under it instead of a pop-up. */
type ServerErrors = Partial<Record<WithdrawField, string>>;

/**
 * What the user typed (address, amount, e-mail code), the server's last message per field,
 * and the request's idempotency key: any change to what would be sent renews the key and
 * clears the field's message.
 */
export function useWithdrawFields(pick: { currency: (id: number) => void; network: (id: number | undefined) => void }) {
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [code, setCode] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<ServerErrors>({});
  // One key per submit; kept across a retry after a transport failure (the first attempt
  // may have gone through), renewed after a refusal, a success or any change to the form.
  const idempotencyKey = useRef<string | null>(null);

  /** Any change to what would be sent makes a new request: a new key, fresh checks. */
  const edited = (field?: WithdrawField) => {
    idempotencyKey.current = null;
    if (field) setServerErrors((previous) => ({ ...previous, [field]: undefined }));
    else setServerErrors({});
  };

  const change = {
    address: (value: string) => {
      setAddress(value);
      edited('address');
    },
    amount: (value: string) => {
      setAmount(value);
      edited('amount');
    },
    code: (value: string) => {
      setCode(value.replace(/\D/g, '').slice(0, 6));
      edited('code');
    },
    network: (picked: Network) => {
      pick.network(picked.id);
      edited();
    },
    currency: (picked: Currency) => {
      pick.currency(picked.id);
      pick.network(undefined);
      setAmount('');
      edited();
    },
  };

  /** After a withdrawal went out: a fresh form for the next one (address and network kept). */
  const clearForNext = () => {
    setAmount('');
    setCode('');
    setShowErrors(false);
    setServerErrors({});
  };

  return {
    values: { address, amount, code },
    change,
    showErrors,
    setShowErrors,
    serverErrors,
    /** The server refused one field (address, amount, code or the second factor's). */
    refusedField: (field: string, message: string) => setServerErrors({ [field]: message }),
    idempotencyKey,
    clearForNext,
  };
}
