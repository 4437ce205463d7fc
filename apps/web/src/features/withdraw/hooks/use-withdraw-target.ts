import type { Network } from '@coffer/contract/chain';
import type { Currency } from '@coffer/contract/ledger';
import { useState } from 'react';
import { enabledCurrencies, useCurrencies } from '../../../lib/wallet/currencies';
import { currenciesWithNetworks, networksFor, useNetworks } from '../../../lib/wallet/networks';
import { useWithdrawLimits } from '../api/get-limits';

/**
 * Where the withdrawal goes out: the currency and network picked (the first of each until the
 * user picks), the network's limits, the decimals an amount may have, whether payouts are frozen.
 */
export function useWithdrawTarget() {
  const currencies = useCurrencies();
  const networks = useNetworks();
  const options = currenciesWithNetworks(enabledCurrencies(currencies.data), networks.data, 'withdraw');
  const [currencyId, setCurrencyId] = useState<number | undefined>();
  const [networkId, setNetworkId] = useState<number | undefined>();

  const currency: Currency | undefined = options.find((c) => c.id === currencyId) ?? options[0];
  const currencyNetworks = networksFor(networks.data, currency?.id, 'withdraw');
  const network: Network | undefined = currencyNetworks.find((n) => n.id === networkId) ?? currencyNetworks[0];
  const limits = useWithdrawLimits(network?.id);
  const limitsData = limits.data?.networkId === network?.id ? limits.data : undefined;
  const decimals = currency && network ? Math.min(currency.decimals, network.tokenDecimals) : 0;
  const frozen = Boolean(network?.payoutsFrozen || limitsData?.payoutsFrozen);

  return {
    currencies,
    networks,
    options,
    currency,
    currencyNetworks,
    network,
    limits,
    limitsData,
    decimals,
    frozen,
    setCurrencyId,
    setNetworkId,
  };
}
