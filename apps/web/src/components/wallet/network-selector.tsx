import type { Network } from '@coffer/contract/chain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The network choice of a currency as a row of 44 px chips (a radio group). With a single
 * network the choice is shown, not asked.
 */
export function NetworkSelector({
  networks,
  selectedId,
  onSelect,
  testId,
}: {
  networks: readonly Network[];
  selectedId: number | undefined;
  onSelect: (network: Network) => void;
  testId: string;
}) {
  const { t } = useTranslation();
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
              {network.name}
            </button>
          );
        })}
      </div>
    </div>
  );
}
