import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import { List, PullToRefresh, Skeleton } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { EmptyState } from '../../../components/wallet/empty-state';
import { formatFiat, formatMoney } from '../../../lib/amount-format';
import { isZeroAmount } from '../../../lib/money';
import { useBalances } from '../../../lib/wallet/balances';
import { useCurrencies } from '../../../lib/wallet/currencies';
import { useSwapRates } from '../../../lib/wallet/swap-rates';
import { HIDDEN_AMOUNT, useHideBalances } from '../utils/hide-balances';
import { orderBalances } from '../utils/balance-order';
import { REFERENCE_CURRENCY, totalValue, valueIn } from '../utils/total-value';
import { BannerSlot } from './banner-slot';
import { queryKeys } from '../../../lib/query-keys';

interface WalletHomeProps {
  brand: ReactNode;
  greeting: string;
  actions: ReactNode;
}

export default function WalletHome({ brand, greeting, actions }: WalletHomeProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const balances = useBalances();
  const rates = useSwapRates();
  const currencies = useCurrencies();

  const reference = currencies.data?.find((c) => c.code === REFERENCE_CURRENCY);
  const total = useMemo(() => {
    if (!balances.data || !rates.data) return null;
    return totalValue(balances.data, rates.data.list, REFERENCE_CURRENCY, reference?.decimals ?? 6);
  }, [balances.data, rates.data, reference?.decimals]);

  const icons = new Map(currencies.data?.map((c) => [c.id, c]) ?? []);
  const ordered = useMemo(() => {
    if (!balances.data) return [];
    const sortOf = new Map(currencies.data?.map((c) => [c.id, c.sort]) ?? []);
    const rank = (id: number) => sortOf.get(id) ?? Number.MAX_SAFE_INTEGER;
    return orderBalances(balances.data, rank, rates.data?.list ?? [], REFERENCE_CURRENCY, reference?.decimals ?? 6);
  }, [balances.data, currencies.data, rates.data, reference?.decimals]);
  const referenceCurrency = reference ?? { code: REFERENCE_CURRENCY, decimals: 6 };
  const [hidden, toggleHidden] = useHideBalances();
  /** Every balance on home goes through here, so the switch hides them all. */
  const shown = (text: string) => (hidden ? HIDDEN_AMOUNT : text);
  const fiat = (code: string, amount: string) => {
    if (code === REFERENCE_CURRENCY || !rates.data || isZeroAmount(amount)) return null;
    const value = valueIn({ code, total: amount }, rates.data.list, REFERENCE_CURRENCY, reference?.decimals ?? 6);
    return value === null ? null : `≈ ${formatFiat(value, referenceCurrency)} ${REFERENCE_CURRENCY}`;
  };

  const refresh = async () => {
    await Promise.all([
      queryClient.refetchQueries({ queryKey: queryKeys.balances.all }),
      queryClient.refetchQueries({ queryKey: queryKeys.swapRates }),
    ]);
  };

  return (
    <PullToRefresh onRefresh={refresh}>
      <div className="flex flex-col gap-4" data-testid="home">
        <section className="home-hero">
          {brand}
          <h1 className="home-hero-title">{greeting}</h1>
          <div>
            <div className="home-total-head">
              <p className="home-hero-hint">{t('assets.totalIn', { code: REFERENCE_CURRENCY })}</p>
              <button
                type="button"
                className="home-hide-toggle"
                aria-pressed={hidden}
                aria-label={hidden ? t('assets.showBalances') : t('assets.hideBalances')}
                onClick={toggleHidden}
              >
                <EyeIcon closed={hidden} />
              </button>
            </div>
            <div className="home-total" data-testid="home-total">
              {total ? shown(`≈ ${formatFiat(total.total, referenceCurrency)}`) : <Skeleton.Title animated />}
            </div>
            {total?.unpriced.length ? (
              <p className="home-hero-hint text-xs">{t('assets.unpriced', { codes: total.unpriced.join(', ') })}</p>
            ) : null}
          </div>
        </section>

        {actions}
        <BannerSlot />

        <section className="card" aria-labelledby="home-balances">
          <h2 id="home-balances" className="m-0 mb-1 text-base font-semibold">
            {t('assets.balances')}
          </h2>
          {balances.isPending ? (
            <Skeleton.Paragraph animated lineCount={4} />
          ) : balances.isError ? (
            <EmptyState
              status="disconnected"
              title={t('wallet.loadFailed')}
              description={
                <button type="button" className="home-button home-button--outline" onClick={() => void refresh()}>
                  {t('common.retry')}
                </button>
              }
            />
          ) : (
            <List className="home-balances" style={{ '--border-top': 'none', '--border-bottom': 'none' }}>
              {ordered.map((balance) => {
                const currency = icons.get(balance.currencyId);
                const money = currency ?? balance.code;
                const worth = fiat(balance.code, balance.total);
                return (
                  <List.Item
                    key={balance.currencyId}
                    data-testid={`balance-${balance.code}`}
                    prefix={<CurrencyIcon code={balance.code} icon={currency?.icon} size={36} />}
                    description={currency?.name}
                    extra={
                      <div className="text-right">
                        <div className="home-balance-amount" data-testid={`balance-${balance.code}-total`}>
                          {shown(formatMoney(balance.total, money))}
                        </div>
                        {worth ? (
                          <div className="wallet-muted" data-testid={`balance-${balance.code}-fiat`}>
                            {shown(worth)}
                          </div>
                        ) : null}
                        {isZeroAmount(balance.frozen) ? null : (
                          <div className="wallet-muted">{t('assets.frozen', { amount: shown(formatMoney(balance.frozen, money)) })}</div>
                        )}
                      </div>
                    }
                    onClick={() => navigate(`/bill/all?currencyId=${balance.currencyId}`)}
                    arrow={false}
                  >
                    <span className="font-semibold">{balance.code}</span>
                  </List.Item>
                );
              })}
            </List>
          )}
        </section>
        {/* Below the balances, not above: it shows once they have arrived, and above it would
            push the list down as the page settles (decision 065). */}
        {balances.data?.every((b) => isZeroAmount(b.total)) ? <FirstDeposit /> : null}
      </div>
    </PullToRefresh>
  );
}

/** An empty wallet: the one thing to do first, up front. */
function FirstDeposit() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="card home-first-deposit" data-testid="home-first-deposit">
      <h2 className="m-0 text-base font-semibold">{t('assets.firstDepositTitle')}</h2>
      <p className="wallet-muted m-0 mt-1">{t('assets.firstDepositHint')}</p>
      <button type="button" className="home-button home-button--outline mt-3" onClick={() => navigate('/charge')}>
        {t('assets.firstDeposit')}
      </button>
    </section>
  );
}

/** An eye, struck through while balances are hidden (a few strokes: no icon package). */
function EyeIcon({ closed }: { closed: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {closed ? <path d="M4 4l16 16" /> : null}
    </svg>
  );
}
