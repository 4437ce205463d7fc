import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import '../bill.css';
import { TURNOVER_TYPES } from '@coffer/contract/rules';
import type { TurnoverFilters } from '@coffer/contract/turnover';
import { Button, CalendarPicker, SearchBar } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toastSuccess } from '../../../lib/notify';
import { enabledCurrencies, useCurrencies } from '../../../lib/wallet/currencies';
import { exportTurnover } from '../api/export-turnover';
import { useTurnover } from '../api/get-turnover';
import { FilterBar } from '../components/filter-bar';
import { PagedList } from '../components/paged-list';
import { TurnoverRow } from '../components/turnover-row';
import { turnoverTypeLabel } from '../utils/labels';
import { earliestCustomDay, isPeriod, localDay, PERIODS, type Period, periodRange } from '../utils/periods';

/** The statement line types a user meets today. */
const TYPES = TURNOVER_TYPES;

/** /bill/all (the OTC tab): the statement with filters, export and record details. */
export default function BillAllPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const currencies = enabledCurrencies(useCurrencies().data);
  const [calendarOpen, setCalendarOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  // Filters live in the URL so a refresh or a shared link keeps them.
  const currencyId = Number(params.get('currencyId')) || undefined;
  const type = params.get('type') || undefined;
  const rawPeriod = params.get('period');
  const period: Period = isPeriod(rawPeriod) ? rawPeriod : 'all';
  const start = params.get('start');
  const end = params.get('end');
  // A transaction's reference (the number its record, statement line and CSV show; decision 053).
  const reference = Number(params.get('reference')) || undefined;
  // The day changes rarely while the page is open; recomputing per render keeps it right.
  const range = periodRange(period, new Date(), { start, end });

  const filters: TurnoverFilters = {
    ...(currencyId ? { currencyId } : {}),
    ...(type ? { type } : {}),
    ...(range ? { from: range.from, to: range.to } : {}),
    ...(reference ? { reference } : {}),
  };
  const query = useTurnover(filters);

  const setFilters = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  const setFilter = (key: string, value: string | undefined) => setFilters({ [key]: value });

  const currencyTitle = currencies.find((c) => c.id === currencyId)?.code ?? t('statement.allCurrencies');
  const typeTitle = type ? turnoverTypeLabel(t, type) : t('statement.allTypes');
  const periodTitle = t(`statement.periods.${period}`);

  const onExport = async () => {
    setExporting(true);
    try {
      const name = await exportTurnover(filters);
      if (name) toastSuccess(t('statement.exported'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="wallet-page" data-testid="statement-page">
      <div className="bill-statement-head">
        <h1>{t('statement.title')}</h1>
        <Button
          size="small"
          fill="outline"
          color="primary"
          loading={exporting}
          onClick={() => void onExport()}
          data-testid="statement-export"
        >
          <span className="inline-flex items-center gap-1">
            <DownlandOutline />
            {t('statement.export')}
          </span>
        </Button>
      </div>

      <FilterBar
        filters={[
          {
            key: 'currency',
            name: t('statement.filters.currency'),
            title: currencyTitle,
            options: [
              { label: t('statement.allCurrencies'), value: '' },
              ...currencies.map((c) => ({ label: c.code, value: String(c.id) })),
            ],
            selected: currencyId ? String(currencyId) : '',
            onPick: (value) => setFilter('currencyId', value || undefined),
          },
          {
            key: 'type',
            name: t('statement.filters.type'),
            title: typeTitle,
            options: [
              { label: t('statement.allTypes'), value: '' },
              ...TYPES.map((value) => ({ label: turnoverTypeLabel(t, value), value })),
            ],
            selected: type ?? '',
            onPick: (value) => setFilter('type', value || undefined),
          },
          {
            key: 'period',
            name: t('statement.filters.period'),
            title: periodTitle,
            options: PERIODS.map((value) => ({ label: t(`statement.periods.${value}`), value })),
            selected: period,
            onPick: (value) => {
              if (value === 'custom') setCalendarOpen(true);
              else setFilters({ period: value !== 'all' ? value : undefined, start: undefined, end: undefined });
            },
          },
        ]}
      />

      <SearchBar
        placeholder={t('statement.searchReference')}
        defaultValue={reference ? String(reference) : ''}
        onSearch={(value) => setFilter('reference', /^\d{1,15}$/.test(value.trim()) ? value.trim() : undefined)}
        onClear={() => setFilter('reference', undefined)}
        data-testid="statement-search"
      />

      {period === 'custom' && range ? (
        <div className="wallet-muted" data-testid="statement-range">
          {t('statement.range', { from: start, to: end })}
        </div>
      ) : null}

      <PagedList
        query={query}
        keyOf={(item) => item.id}
        timeOf={(item) => item.createdAt}
        renderItem={(item) => <TurnoverRow item={item} />}
        emptyTitle={t('statement.empty')}
        emptyDescription={t('statement.emptyHint')}
        testId="statement-list"
      />

      <CalendarPicker
        visible={calendarOpen}
        selectionMode="range"
        // antd's default window is this month and the next six; a statement looks back.
        min={earliestCustomDay(new Date())}
        max={new Date()}
        onClose={() => setCalendarOpen(false)}
        onMaskClick={() => setCalendarOpen(false)}
        onConfirm={(value) => {
          setCalendarOpen(false);
          if (!value) return;
          setFilters({ period: 'custom', start: localDay(value[0]), end: localDay(value[1]) });
        }}
      />
    </div>
  );
}
