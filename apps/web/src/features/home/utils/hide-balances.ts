import { useState } from 'react';
import { local } from '../../../lib/storage';

/** Home's hide-balances switch, kept in this browser across visits ("1": hidden). */
export const HIDE_BALANCES_KEY = 'hide_balances';
/** What every hidden amount reads as: no digits, no length hint. */
export const HIDDEN_AMOUNT = '****';

export function balancesHidden(): boolean {
  return local.get(HIDE_BALANCES_KEY) === '1';
}

export function setBalancesHidden(hidden: boolean) {
  local.set(HIDE_BALANCES_KEY, hidden ? '1' : '0');
}

export function useHideBalances(): [boolean, () => void] {
  const [hidden, setHidden] = useState(balancesHidden);
  const toggle = () => {
    setBalancesHidden(!hidden);
    setHidden(!hidden);
  };
  return [hidden, toggle];
}
