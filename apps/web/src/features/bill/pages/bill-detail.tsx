import '../../../components/wallet/wallet.css';
import '../../../components/wallet/chain.css';
import '../bill.css';
import { ErrorCode } from '@coffer/contract/errors';
import type { TransferRecord } from '@coffer/contract/ledger';
import type { SwapRecord } from '@coffer/contract/swap';
import type { TurnoverDetail } from '@coffer/contract/turnover';
import type { UseQueryResult } from '@tanstack/react-query';
import { Skeleton } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Amount, useMoneyText } from '../../../components/wallet/amount';
import { EmptyState } from '../../../components/wallet/empty-state';
import { isApiError } from '@coffer/api-client/api-error';
import { formatNaturalRate, formatRateValue } from '../../../lib/amount-format';
import { formatDateTime } from '../../../lib/wallet/format';
import { useWithdrawal } from '../../../lib/wallet/withdrawals';
import { useSwap } from '../api/get-swap';
import { useTransfer } from '../api/get-transfer';
import { useTurnoverDetail } from '../api/get-turnover-detail';
import { useDeposit } from '../api/get-deposit';
import { DepositDetail, WithdrawDetail } from '../components/chain-details';
import { Head, ReferenceRow, Row, Summary } from '../components/detail-parts';
import { signClass, turnoverTypeLabel } from '../utils/labels';
import { recordIdParam } from '../../../lib/record-id';

const DETAIL_TYPES = ['transfer', 'swap', 'turnover', 'charge', 'withdraw'] as const;
type DetailType = (typeof DETAIL_TYPES)[number];

function isDetailType(value: string | null): value is DetailType {
  return (DETAIL_TYPES as readonly (string | null)[]).includes(value);
}

function NotFound() {
  const { t } = useTranslation();
  return <EmptyState title={t('bill.notFound')} description={t('bill.notFoundHint')} testId="bill-not-found" />;
}

/** Loading, not found (4004 or a malformed link), failed, or the record. */
function Loaded<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  if (query.isPending && query.fetchStatus !== 'idle') {
    return (
      <div className="wallet-card">
        <Skeleton.Title animated />
        <Skeleton.Paragraph animated lineCount={6} />
      </div>
    );
  }
  if (query.isError) {
    if (isApiError(query.error, ErrorCode.NOT_FOUND)) return <NotFound />;
    return (
      <EmptyState status="disconnected" title={t('wallet.loadFailed')}>
        <button type="button" className="home-button home-button--outline" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </button>
      </EmptyState>
    );
  }
  if (query.data === undefined) return <NotFound />;
  return <>{children(query.data)}</>;
}

/** A done transfer or swap: the same AA badge as a chain record's status (antd's filled Tag is white on a light green in dark). */
function SuccessStatus() {
  const { t } = useTranslation();
  return <span className="chain-status chain-status--success">{t('bill.status.success')}</span>;
}

function TransferDetail({ record }: { record: TransferRecord }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  const incoming = record.direction === 'in';
  const name = record.counterparty.nickname || record.counterparty.maskedEmail;
  return (
    <div className="wallet-card" data-testid="bill-detail-transfer">
      <Head
        code={record.code}
        value={record.amount}
        sign={incoming ? '+' : '-'}
        title={t(incoming ? 'bill.transferIn' : 'bill.transferOut')}
        testId="detail-amount"
      />
      <Summary>
        {t(incoming ? 'bill.summary.transferIn' : 'bill.summary.transferOut', {
          amount: money(record.amount, record.code, incoming ? 'down' : 'up'),
          code: record.code,
          name,
        })}
      </Summary>
      <Row label={t('bill.fields.status')}>
        <SuccessStatus />
      </Row>
      <ReferenceRow id={record.reference} />
      <Row label={t(incoming ? 'bill.fields.sender' : 'bill.fields.recipient')} testId="detail-counterparty">
        {record.counterparty.nickname ? `${record.counterparty.nickname} · ` : ''}
        {record.counterparty.maskedEmail} · {t('transfer.uidLabel', { uid: record.counterparty.uid })}
      </Row>
      <Row label={t('bill.fields.fee')} testId="detail-fee">{`0 ${record.code}`}</Row>
      <Row label={t('bill.fields.memo')} testId="detail-memo">
        {record.memo || '--'}
      </Row>
      <Row label={t('bill.fields.time')}>{formatDateTime(record.createdAt)}</Row>
    </div>
  );
}

function SwapDetail({ record }: { record: SwapRecord }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  return (
    <div className="wallet-card" data-testid="bill-detail-swap">
      <Head
        code={record.toCurrency}
        value={record.toAmount}
        sign="+"
        title={`${record.fromCurrency} → ${record.toCurrency}`}
        testId="detail-amount"
      />
      <Summary>
        {t('bill.summary.swap', {
          paid: `${money(record.fromAmount, record.fromCurrency, 'up')} ${record.fromCurrency}`,
          received: `${money(record.toAmount, record.toCurrency)} ${record.toCurrency}`,
        })}
      </Summary>
      <Row label={t('bill.fields.status')}>
        <SuccessStatus />
      </Row>
      <ReferenceRow id={record.entryId} />
      <Row label={t('bill.fields.paid')}>
        <Amount value={record.fromAmount} code={record.fromCurrency} sign="-" rounding="up" testId="detail-paid" />
      </Row>
      <Row label={t('bill.fields.received')}>
        <Amount value={record.toAmount} code={record.toCurrency} sign="+" />
      </Row>
      <Row label={t('bill.fields.rate')} testId="detail-rate">
        {formatNaturalRate(record.rate, { code: record.fromCurrency, decimals: 18 }, { code: record.toCurrency, decimals: 18 })}
      </Row>
      <Row label={t('bill.fields.fee')}>
        <Amount value={record.fee} code={record.feeCurrency} rounding="up" testId="detail-fee" />
      </Row>
      <Row label={t('bill.fields.time')}>{formatDateTime(record.createdAt)}</Row>
    </div>
  );
}

function TurnoverDetailView({ detail }: { detail: TurnoverDetail }) {
  const { t } = useTranslation();
  const debit = detail.amount.startsWith('-');
  return (
    <div className="wallet-page">
      <div className="wallet-card" data-testid="bill-detail-turnover">
        <Head
          code={detail.currency}
          value={debit ? detail.amount.slice(1) : detail.amount}
          sign={debit ? '-' : '+'}
          title={turnoverTypeLabel(t, detail.type)}
          testId="detail-amount"
        />
        <ReferenceRow id={detail.reference} />
        <Row label={t('bill.fields.type')} testId="detail-type">
          {turnoverTypeLabel(t, detail.type)}
        </Row>
        <Row label={t('bill.fields.balanceAfter')}>
          <Amount value={detail.balanceAfter} code={detail.currency} />
        </Row>
        {detail.counterparty ? (
          <Row label={t('bill.fields.counterparty')} testId="detail-counterparty">
            {detail.counterparty.nickname ? `${detail.counterparty.nickname} · ` : ''}
            {detail.counterparty.maskedEmail}
          </Row>
        ) : null}
        {detail.summary ? <Row label={t('bill.fields.reference')}>{detail.summary}</Row> : null}
        {detail.memo ? (
          <Row label={t('bill.fields.memo')} testId="detail-memo">
            {detail.memo}
          </Row>
        ) : null}
        {detail.rate ? (
          <Row label={t('bill.fields.rate')}>{formatRateValue(detail.rate, { code: detail.currency, decimals: 18 })}</Row>
        ) : null}
        {detail.fee ? (
          <Row label={t('bill.fields.fee')}>
            <Amount value={detail.fee} code={detail.feeCurrency ?? detail.currency} rounding="up" />
          </Row>
        ) : null}
        <Row label={t('bill.fields.time')}>{formatDateTime(detail.createdAt)}</Row>
      </div>
      {detail.entry.postings.length > 1 ? (
        <div className="wallet-card">
          <h2 className="wallet-card-title">{t('bill.postings')}</h2>
          {detail.entry.postings.map((posting) => {
            const out = posting.amount.startsWith('-');
            return (
              <div key={posting.id} className="wallet-row">
                <span>
                  {posting.currency} · {t(`statement.accounts.${posting.accountKind}`, { defaultValue: posting.accountKind })}
                </span>
                <Amount
                  value={out ? posting.amount.slice(1) : posting.amount}
                  code={posting.currency}
                  sign={out ? '-' : '+'}
                  rounding={out ? 'up' : 'down'}
                  className={signClass(posting.amount)}
                />
              </div>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}

/** /bill/detail?type=transfer|swap|turnover|charge|withdraw&id=N */
export default function BillDetailPage() {
  const [params] = useSearchParams();
  const rawType = params.get('type');
  const type: DetailType | null = isDetailType(rawType) ? rawType : null;
  const id = recordIdParam(params.get('id'));
  const valid = type !== null && id !== null;

  const transfer = useTransfer(id ?? 0, valid && type === 'transfer');
  const swap = useSwap(id ?? 0, valid && type === 'swap');
  const turnover = useTurnoverDetail(id ?? 0, valid && type === 'turnover');
  const deposit = useDeposit(id ?? 0, valid && type === 'charge');
  const withdrawal = useWithdrawal(id ?? 0, valid && type === 'withdraw');

  if (!valid) return <NotFound />;
  return (
    <div className="wallet-page" data-testid="bill-detail">
      {type === 'transfer' ? <Loaded query={transfer}>{(record) => <TransferDetail record={record} />}</Loaded> : null}
      {type === 'swap' ? <Loaded query={swap}>{(record) => <SwapDetail record={record} />}</Loaded> : null}
      {type === 'turnover' ? <Loaded query={turnover}>{(detail) => <TurnoverDetailView detail={detail} />}</Loaded> : null}
      {type === 'charge' ? <Loaded query={deposit}>{(record) => <DepositDetail record={record} />}</Loaded> : null}
      {type === 'withdraw' ? <Loaded query={withdrawal}>{(record) => <WithdrawDetail record={record} />}</Loaded> : null}
    </div>
  );
}
