import type { Network } from '@coffer/contract/chain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrencyLike } from '../../lib/amount-format';
import { networkFeeText } from './network-fee';

/** Seconds a transfer takes to confirm on a network, about: its confirmations × its block time. */
export function confirmSeconds(network: Pick<Network, 'confirmations' | 'blockSeconds'>): number {
  return network.confirmations * network.blockSeconds;
}

/**
 * The network choice of a currency as a row of 44 px chips (a radio group), each with what
 * tells the networks apart: its fee (withdrawals), confirmations and about how long they take.
 * With a single network the choice is shown, not asked. The fee reads at the currency's
 * display precision, rounded up (what the user pays), like every other amount in a list.
 */
export function NetworkSelector({
  networks,
  selectedId,
  onSelect,
  testId,
  use = 'deposit',
  currency,
}: {
  networks: readonly Network[];
  selectedId: number | undefined;
  onSelect: (network: Network) => void;
  testId: string;
  use?: 'deposit' | 'withdraw';
  /** The networks' currency (its display precision); without it, the contract's table for the code. */
  currency?: CurrencyLike;
}) {
  const { t } = useTranslation();
  const detail = (network: Network) => {
    const seconds = confirmSeconds(network);
    const time = seconds < 60 ? t('chain.aboutSeconds', { count: seconds }) : t('chain.aboutMinutes', { count: Math.ceil(seconds / 60) });
    const values = {
      confirmations: network.confirmations,
      time,
      fee: networkFeeText(network.withdrawFee, currency ?? network.code),
      code: network.code,
    };
    return use === 'withdraw' ? t('chain.networkDetailWithdraw', values) : t('chain.networkDetailDeposit', values);
  };
  const labelId = useId();
  return (
    <div className="network-selector" data-testid={testId}>
      <div id={labelId} className="wallet-card-title">
        {t('chain.network')}
      </div>
      <div role="radiogroup" aria-labelledby={labelId} className="network-options">
        {networks.map((network) => {
          const checked = network.id === selectedId;
          return (
            // biome-ignore lint/a11y/useSemanticElements: a button with role radio in a radiogroup (WAI-ARIA pattern) keeps the chip look without restyling native radios
            <button
              key={network.id}
              type="button"
              role="radio"
              aria-checked={checked}
              className={checked ? 'network-option network-option--active' : 'network-option'}
              onClick={() => onSelect(network)}
              data-testid={`network-option-${network.id}`}
            >
              <span className="network-option-name">{network.name}</span>
              <span className="network-option-detail" data-testid={`network-detail-${network.id}`}>
                {detail(network)}
              </span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
