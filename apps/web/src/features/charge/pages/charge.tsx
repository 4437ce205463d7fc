import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import '../../../components/wallet/chain.css';
import '../charge.css';
import type { Network } from '@coffer/contract/chain';
import { Button, Skeleton } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/wallet/copy-button';
import { CurrencyButton } from '../../../components/wallet/currency-button';
import { CurrencyPicker } from '../../../components/wallet/currency-picker';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { NetworkSelector } from '../../../components/wallet/network-selector';
import { useMoneyText } from '../../../components/wallet/amount';
import { toastSuccess } from '../../../lib/notify';
import { useConfigs } from '../../../lib/wallet/configs';
import { enabledCurrencies, useCurrencies } from '../../../lib/wallet/currencies';
import { currenciesWithNetworks, networksFor, useNetworks } from '../../../lib/wallet/networks';
import { useFaucet } from '../api/request-faucet';
import { AddressQr } from '../components/address-qr';
import { PendingDeposits } from '../components/pending-deposits';
import { ShareAddress } from '../components/share-address';
import { useDepositAddress } from '../hooks/use-deposit-address';

function AddressCard({ currencyId, network }: { currencyId: number; network: Network }) {
  const { t } = useTranslation();
  const address = useDepositAddress(currencyId, network.id);
  const configs = useConfigs();
  const faucet = useFaucet();
  const money = useMoneyText();

  const askFaucet = async () => {
    try {
      const sent = await faucet.mutateAsync(network.id);
      toastSuccess(t('charge.faucetSent', { amount: money(sent.amount, network.code), code: network.code }));
    } catch {
      // The HTTP layer has shown the server's message.
    }
  };

  if (address.isError) {
    return (
      <div className="wallet-card">
        <EmptyState status="disconnected" title={t('charge.addressFailed')} testId="deposit-address-error">
          <Button size="small" color="primary" fill="outline" className="chain-action" onClick={() => void address.refetch()}>
            {t('common.retry')}
          </Button>
        </EmptyState>
      </div>
    );
  }

  const data = address.data;
  const minDeposit = data?.minDeposit ?? network.minDeposit;
  const confirmations = data?.confirmations ?? network.confirmations;

  return (
    <section className="wallet-card charge-address-card" aria-labelledby="deposit-address-label">
      {data ? (
        <AddressQr value={data.address} label={t('charge.qrLabel', { code: network.code, network: network.name })} />
      ) : (
        <div className="charge-qr">
          <Skeleton animated className="charge-qr-skeleton" />
        </div>
      )}
      <div id="deposit-address-label" className="wallet-muted mt-4">
        {t('charge.addressLabel', { code: network.code, network: network.name })}
      </div>
      <div className="charge-address-row">
        {data ? (
          <span className="chain-mono charge-address" data-testid="deposit-address">
            {data.address}
          </span>
        ) : (
          // The address and its copy button's height: nothing below moves when they arrive.
          <Skeleton animated className="charge-address-placeholder" />
        )}
        {data ? <CopyButton value={data.address} label={t('charge.copyAddress')} testId="deposit-address-copy" /> : null}
      </div>
      <ShareAddress address={data?.address} what={t('charge.addressLabel', { code: network.code, network: network.name })} />
      <div className="mt-3">
        <div className="wallet-row">
          <span>{t('charge.minDeposit')}</span>
          <span data-testid="deposit-min">
            {money(minDeposit, network.code, 'up')} {network.code}
          </span>
        </div>
        <div className="wallet-row">
          <span>{t('charge.confirmations')}</span>
          <span data-testid="deposit-confirmations-required">{t('charge.confirmationsValue', { count: confirmations })}</span>
        </div>
      </div>
      <ul className="chain-hint mt-2">
        <li>{t('charge.hintOnly', { code: network.code, network: network.name })}</li>
        <li>{t('charge.hintMin', { min: money(minDeposit, network.code, 'up'), code: network.code })}</li>
        <li>{t('charge.hintCredit', { count: confirmations })}</li>
      </ul>
      {configs.data?.faucet ? (
        <div className="charge-faucet">
          <Button
            block
            color="primary"
            fill="outline"
            className="chain-action"
            loading={faucet.isPending}
            disabled={!data}
            onClick={() => void askFaucet()}
            data-testid="faucet-button"
          >
            {t('charge.faucet')}
          </Button>
          <div className="wallet-muted mt-1">{t('charge.faucetHint')}</div>
        </div>
      ) : null}
    </section>
  );
}

/** /charge: the user's deposit address per currency and network, and the deposits on their way. */
export default function ChargePage() {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const networks = useNetworks();
  const options = currenciesWithNetworks(enabledCurrencies(currencies.data), networks.data, 'deposit');
  const [currencyId, setCurrencyId] = useState<number | undefined>();
  const [networkId, setNetworkId] = useState<number | undefined>();
  const [pickerOpen, setPickerOpen] = useState(false);

  const currency = options.find((c) => c.id === currencyId) ?? options[0];
  const currencyNetworks = networksFor(networks.data, currency?.id, 'deposit');
  const network = currencyNetworks.find((n) => n.id === networkId) ?? currencyNetworks[0];

  useEffect(() => {
    if (currencyId === undefined && options[0]) setCurrencyId(options[0].id);
  }, [currencyId, options]);

  const loading = currencies.isPending || networks.isPending;
  const failed = !loading && (currencies.isError || networks.isError);

  return (
    <div className="wallet-page" data-testid="charge-page">
      {loading ? (
        // The two cards that follow, at their heights (the QR's box included), so that nothing
        // below moves when they arrive (decision 065).
        <>
          <div className="wallet-card charge-choice-skeleton">
            <Skeleton.Title animated />
            <Skeleton.Paragraph animated lineCount={2} />
          </div>
          <div className="wallet-card charge-address-card charge-address-skeleton">
            <div className="charge-qr">
              <Skeleton animated className="charge-qr-skeleton" />
            </div>
            <Skeleton.Paragraph animated lineCount={6} className="mt-4" />
          </div>
        </>
      ) : failed ? (
        <LoadFailed
          testId="charge-load-failed"
          onRetry={() => {
            void currencies.refetch();
            void networks.refetch();
          }}
        />
      ) : !currency || !network ? (
        <EmptyState title={t('charge.noNetworks')} description={t('charge.noNetworksHint')} testId="charge-no-networks" />
      ) : (
        <>
          <section className="wallet-card">
            <div className="mb-3 flex items-center justify-between">
              <span className="wallet-card-title m-0">{t('chain.currency')}</span>
              <CurrencyButton
                code={currency.code}
                icon={currency.icon}
                placeholder={t('wallet.chooseCurrency')}
                onClick={() => setPickerOpen(true)}
                testId="charge-currency"
              />
            </div>
            <NetworkSelector
              networks={currencyNetworks}
              selectedId={network.id}
              onSelect={(picked) => setNetworkId(picked.id)}
              testId="charge-network"
              currency={currency}
            />
          </section>
          <AddressCard key={network.id} currencyId={currency.id} network={network} />
        </>
      )}

      <PendingDeposits />

      <CurrencyPicker
        visible={pickerOpen}
        onClose={() => setPickerOpen(false)}
        currencies={options}
        selectedId={currency?.id}
        onSelect={(picked) => {
          setCurrencyId(picked.id);
          setNetworkId(undefined);
        }}
      />
    </div>
  );
}
