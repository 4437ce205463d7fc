import type { DepositRecord, WithdrawRecord, WithdrawStatus } from '@coffer/contract/chain';
import { WITHDRAW_CANCELLABLE } from '@coffer/contract/rules';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { ChainStatusTag, confirmationsText } from '../../../components/wallet/chain-status';
import { Amount, useMoneyText } from '../../../components/wallet/amount';
import { CopyButton } from '../../../components/wallet/copy-button';
import { Dialog } from '../../../lib/dialog';
import { toastSuccess } from '../../../lib/notify';
import { formatDateTime } from '../../../lib/wallet/format';
import { useCancelWithdrawal } from '../api/cancel-withdrawal';
import { useNetworks } from '../../../lib/wallet/networks';
import { type ExplorerLinks, explorerLinks } from '../utils/explorer';
import { depositTimeline, withdrawTimeline } from '../utils/timeline';
import { Head, ReferenceRow, Row, Summary } from './detail-parts';
import { StatusTimeline } from './status-timeline';

/**
 * An address or hash in full (details show exact values), with a copy button; with `href`, the
 * value opens the network's block explorer in a new tab (without handing it this page).
 */
function Copyable({ value, label, testId, href }: { value: string; label: string; testId: string; href?: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="bill-copyable">
      <div className="wallet-muted">{label}</div>
      <div className="bill-copyable-value">
        {href ? (
          <a
            className="chain-mono bill-explorer-link"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            title={t('chain.openExplorer')}
            data-testid={testId}
          >
            {value}
          </a>
        ) : (
          <span className="chain-mono" data-testid={testId}>
            {value}
          </span>
        )}
        <CopyButton value={value} label={label} testId={`${testId}-copy`} />
      </div>
    </div>
  );
}

/** The record's explorer links from its network's templates (none while the list loads). */
function useExplorerLinks(record: { networkId: number; txHash: string | null; address: string }): ExplorerLinks {
  const networks = useNetworks();
  return explorerLinks(
    networks.data?.find((n) => n.id === record.networkId),
    record,
  );
}

/** 0x1234…abcd: enough to recognise an address in a sentence; the full one is below. */
function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

export function DepositDetail({ record }: { record: DepositRecord }) {
  const { t } = useTranslation();
  const links = useExplorerLinks(record);
  const money = useMoneyText();
  return (
    <>
      <div className="wallet-card" data-testid="bill-detail-charge">
        <Head code={record.code} value={record.amount} sign="+" title={t('bill.chargeTitle')} testId="detail-amount" />
        <Summary>{t('bill.summary.charge', { amount: money(record.amount, record.code), code: record.code })}</Summary>
        <Row label={t('bill.fields.status')}>
          <ChainStatusTag kind="deposit" status={record.status} testId="detail-status" />
        </Row>
        <Row label={t('chain.confirmationsLabel')} testId="detail-confirmations">
          {confirmationsText(record.confirmations, record.confirmationsRequired)}
        </Row>
        {/* The credit entry, as its statement line and CSV row say; none before the credit (the hash below identifies it). */}
        {record.reference === null ? null : <ReferenceRow id={record.reference} />}
        <Row label={t('chain.network')}>{record.networkName}</Row>
        {/* Unconfirmed (in a mempool): no block yet. */}
        {record.status === 'unconfirmed' ? null : <Row label={t('chain.blockNumber')}>{record.blockNumber}</Row>}
        <Row label={t('bill.fields.time')}>{formatDateTime(record.createdAt)}</Row>
        {record.creditedAt ? <Row label={t('chain.creditedAt')}>{formatDateTime(record.creditedAt)}</Row> : null}
        <Copyable value={record.txHash} label={t('chain.txHash')} testId="detail-tx-hash" href={links.tx} />
        <Copyable value={record.address} label={t('chain.toAddress')} testId="detail-address" href={links.address} />
        <Copyable value={record.fromAddress} label={t('chain.fromAddress')} testId="detail-from-address" />
      </div>
      <StatusTimeline
        steps={depositTimeline(record)}
        confirmations={record.confirmations}
        confirmationsRequired={record.confirmationsRequired}
      />
    </>
  );
}

/** The endings that put the whole hold (amount and fee) back in available: nothing was sent. */
const RETURNED: readonly WithdrawStatus[] = ['cancelled', 'rejected', 'failed'];

export function WithdrawDetail({ record }: { record: WithdrawRecord }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  const cancel = useCancelWithdrawal();
  const links = useExplorerLinks(record);
  const cancellable = WITHDRAW_CANCELLABLE.includes(record.status);
  // A refunded withdrawal reads as what happened (rejected, cancelled, failed), what came back and when.
  const returned = RETURNED.includes(record.status);

  const askCancel = async () => {
    const confirmed = await Dialog.confirm({
      title: t('withdraw.cancelTitle'),
      content: t('withdraw.cancelContent', { amount: money(record.total, record.code), code: record.code }),
      confirmText: t('withdraw.cancelConfirm'),
      cancelText: t('withdraw.cancelKeep'),
    });
    if (!confirmed) return;
    try {
      await cancel.mutateAsync(record.id);
      toastSuccess(t('withdraw.cancelled'));
    } catch {
      // The HTTP layer has shown the server's message (3007 when it moved on meanwhile).
    }
  };

  return (
    <>
      <div className="wallet-card" data-testid="bill-detail-withdraw">
        <Head
          code={record.code}
          value={returned ? record.total : record.amount}
          sign={returned ? '' : '-'}
          title={returned ? t(`chain.withdrawStatus.${record.status}`) : t('bill.withdrawTitle')}
          testId="detail-amount"
        />
        <Summary>
          {returned
            ? t(`bill.summary.withdrawReturned.${record.status}`, { amount: money(record.total, record.code), code: record.code })
            : t('bill.summary.withdraw', {
                amount: money(record.amount, record.code, 'up'),
                code: record.code,
                address: shortAddress(record.address),
              })}
        </Summary>
        <Row label={t('bill.fields.status')}>
          <ChainStatusTag kind="withdraw" status={record.status} testId="detail-status" />
        </Row>
        {record.waitReason ? (
          <Row label={t('withdraw.waiting')} testId="detail-wait-reason">
            {t(`withdraw.waitReasons.${record.waitReason}`)}
          </Row>
        ) : null}
        {record.reason ? (
          <Row label={t('chain.reason')} testId="detail-reason">
            {record.reason}
          </Row>
        ) : null}
        {record.txHash ? (
          <Row label={t('chain.confirmationsLabel')} testId="detail-confirmations">
            {confirmationsText(record.confirmations, record.confirmationsRequired)}
          </Row>
        ) : null}
        {/* The hold entry: the number on every statement line of this withdrawal (decision 059). */}
        <ReferenceRow id={record.reference} />
        <Row label={t('chain.network')}>{record.networkName}</Row>
        {/* Nothing reached the address of a returned withdrawal and nothing stays deducted:
            it shows what was asked for and what came back, never "received" or "deducted". */}
        <Row label={t(returned ? 'withdraw.requested' : 'withdraw.receive')}>
          <Amount value={record.amount} code={record.code} testId="detail-receive" />
        </Row>
        <Row label={t('bill.fields.fee')}>
          <Amount value={record.fee} code={record.code} rounding="up" testId="detail-fee" />
        </Row>
        {returned ? null : (
          <Row label={t('withdraw.total')}>
            <Amount value={record.total} code={record.code} rounding="up" testId="detail-total" />
          </Row>
        )}
        {returned ? (
          <Row label={t('bill.fields.returned')}>
            <Amount value={record.total} code={record.code} testId="detail-returned" />
          </Row>
        ) : null}
        {record.memo ? (
          <Row label={t('bill.fields.memo')} testId="detail-memo">
            {record.memo}
          </Row>
        ) : null}
        <Row label={t('bill.fields.time')}>{formatDateTime(record.createdAt)}</Row>
        {returned ? (
          <Row label={t('bill.fields.returnedAt')} testId="detail-returned-at">
            {formatDateTime(record.completedAt ?? record.updatedAt)}
          </Row>
        ) : record.completedAt ? (
          <Row label={t('chain.completedAt')}>{formatDateTime(record.completedAt)}</Row>
        ) : null}
        <Copyable value={record.address} label={t('withdraw.address')} testId="detail-address" href={links.address} />
        {record.txHash ? <Copyable value={record.txHash} label={t('chain.txHash')} testId="detail-tx-hash" href={links.tx} /> : null}
      </div>
      <StatusTimeline
        steps={withdrawTimeline(record)}
        confirmations={record.confirmations}
        confirmationsRequired={record.confirmationsRequired}
      />
      {cancellable ? (
        <Button
          block
          size="large"
          color="danger"
          fill="outline"
          loading={cancel.isPending}
          onClick={() => void askCancel()}
          data-testid="withdraw-cancel"
        >
          {t('withdraw.cancel')}
        </Button>
      ) : null}
    </>
  );
}
