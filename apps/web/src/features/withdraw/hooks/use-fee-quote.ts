import { useEffect, useRef, useState } from 'react';
import { compareAmounts } from '../../../lib/money';
import { useWithdrawQuote } from '../api/fee-quote';

/** A renewed quote whose fee differs from the one shown before on the same network. */
export interface FeeChange {
  from: string;
  to: string;
}

/**
 * The withdrawal fee quote the form shows before the code step (docs/decisions/040), and
 * whether its fee changed when it was renewed (the user is told, never charged silently).
 */
export function useFeeQuote(networkId: number | undefined, address: string | null, enabled: boolean) {
  const quote = useWithdrawQuote(networkId, address, enabled);
  const shown = useRef<{ networkId: number; fee: string } | null>(null);
  const [change, setChange] = useState<FeeChange | null>(null);
  const data = quote.data;
  useEffect(() => {
    if (!data) return;
    const last = shown.current;
    if (last?.networkId !== data.networkId) setChange(null);
    else if (compareAmounts(last.fee, data.fee) !== 0) setChange({ from: last.fee, to: data.fee });
    shown.current = { networkId: data.networkId, fee: data.fee };
  }, [data]);
  return { quote, data, change, dismissChange: () => setChange(null) };
}

export type FeeQuote = ReturnType<typeof useFeeQuote>;
