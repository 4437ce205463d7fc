import { Alert, Button, Card, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, amountColumn } from '../../../components/amount';
import { MoneyConfirm } from '../../../components/money-confirm';
import { QueryState } from '../../../components/query-state';
import { ReasonModal } from '../../../components/reason-modal';
import { formatTime } from '../../../lib/format';
import { type ChainIncident, useIncidents } from '../api/incidents';
import { type OpenWithdrawal, useOpenWithdrawals } from '../api/open-withdrawals';
import { useResolveIncident } from '../api/resolve-incident';
import { useReviewWithdrawal } from '../api/review-withdrawal';
import { StuckActions } from '../components/stuck-actions';
import { ApprovalState, Destination, ReviewFacts, WithdrawalUser, withdrawalFigures } from '../components/withdrawal-parts';

type Decision = { w: OpenWithdrawal; decision: 'approve' | 'reject' } | null;

function ReviewQueue() {
  const { t } = useTranslation();
  const open = useOpenWithdrawals();
  const [deciding, setDeciding] = useState<Decision>(null);
  const [folded, setFolded] = useState<number[]>([]);
  const review = useReviewWithdrawal({
    // An approval that leaves it in review was the first of two (four eyes, decision 044).
    success: (data, { decision }) =>
      t(decision === 'approve' && data.status === 'review' ? 'withdrawals.firstApprovalDone' : 'withdrawals.done'),
    done: () => setDeciding(null),
  });
  const rows = open.data ?? [];
  return (
    <Card title={t('withdrawals.queue')} extra={<Button onClick={() => void open.refetch()}>{t('common.refresh')}</Button>}>
      {open.isError && <QueryState query={open} />}
      <Table
        size="small"
        rowKey="id"
        loading={open.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={rows}
        // The facts of a withdrawal in review open under its row: open unless the operator folds it.
        expandable={{
          expandedRowRender: (w) => <ReviewFacts w={w} />,
          rowExpandable: (w) => w.facts !== null,
          expandedRowKeys: rows.filter((w) => w.facts !== null && !folded.includes(w.id)).map((w) => w.id),
          onExpand: (expanded, w) => setFolded((f) => (expanded ? f.filter((id) => id !== w.id) : [...f, w.id])),
        }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('withdrawals.user'), key: 'user', width: 200, render: (_, w) => <WithdrawalUser w={w} /> },
          {
            // the network by name over the destination it pays
            title: `${t('withdrawals.network')} · ${t('withdrawals.destination')}`,
            key: 'destination',
            render: (_, w) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text>{`${w.code} · ${w.networkName}`}</Typography.Text>
                <Destination w={w} />
              </Space>
            ),
          },
          {
            title: t('common.amount'),
            key: 'amount',
            ...amountColumn,
            render: (_, w) => <Amount value={w.amount} currency={w.code} />,
          },
          { title: t('withdrawals.fee'), key: 'fee', ...amountColumn, render: (_, w) => <Amount value={w.fee} currency={w.code} /> },
          {
            title: t('common.status'),
            key: 'status',
            width: 190,
            render: (_, w) => (
              <Space orientation="vertical" size={2}>
                <Space size={4} wrap>
                  <Tag color={w.status === 'review' ? 'orange' : 'blue'}>
                    {t(`withdrawals.statuses.${w.status}`, { defaultValue: w.status })}
                  </Tag>
                  <Typography.Text type="secondary">{`${t('withdrawals.age')}: ${w.ageSeconds}`}</Typography.Text>
                </Space>
                <ApprovalState w={w} />
                {/* Why a queued payout waits (the sender writes it) and for how long: a reason
                    older than its alert threshold needs an operator (docs/operations.md). */}
                {w.waitReason && (
                  <Tag color="gold">
                    {t('withdrawals.waitFor', {
                      reason: t(`withdrawals.waitReasons.${w.waitReason}`),
                      minutes: Math.floor((w.waitSeconds ?? 0) / 60),
                    })}
                  </Tag>
                )}
                {w.txHash && (
                  <Typography.Text code copyable={{ text: w.txHash }} ellipsis style={{ maxWidth: 170 }} title={w.txHash}>
                    {w.txHash}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, w) =>
              w.status === 'review' ? (
                <Space orientation="vertical" size={4}>
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => setDeciding({ w, decision: 'approve' })}
                    aria-label={t('withdrawals.approveTitle', { id: w.id })}
                  >
                    {t('withdrawals.approve')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    onClick={() => setDeciding({ w, decision: 'reject' })}
                    aria-label={t('withdrawals.rejectTitle', { id: w.id })}
                  >
                    {t('withdrawals.reject')}
                  </Button>
                </Space>
              ) : w.status === 'broadcast' ? (
                <StuckActions w={w} />
              ) : null,
          },
        ]}
      />
      {deciding && (
        <MoneyConfirm
          title={t(deciding.decision === 'approve' ? 'withdrawals.approveTitle' : 'withdrawals.rejectTitle', { id: deciding.w.id })}
          okText={t(deciding.decision === 'approve' ? 'withdrawals.confirmApprove' : 'withdrawals.confirmReject')}
          danger={deciding.decision === 'reject'}
          figures={withdrawalFigures(t, deciding.w)}
          note={
            deciding.decision === 'approve' && deciding.w.needsSecondOperator && !deciding.w.firstApproval ? (
              <Alert type="warning" showIcon title={t('withdrawals.secondApprovalNote')} />
            ) : deciding.w.firstApproval ? (
              <ApprovalState w={deciding.w} />
            ) : undefined
          }
          askReason
          busy={review.isPending}
          onConfirm={(reason) => review.mutate({ id: deciding.w.id, decision: deciding.decision, reason })}
          onClose={() => setDeciding(null)}
        />
      )}
    </Card>
  );
}

function Incidents() {
  const { t } = useTranslation();
  const [openOnly, setOpenOnly] = useState(true);
  const incidents = useIncidents(openOnly);
  const [resolving, setResolving] = useState<ChainIncident | null>(null);
  const resolve = useResolveIncident({ success: () => t('withdrawals.done'), done: () => setResolving(null) });
  return (
    <Card
      title={t('withdrawals.incidents')}
      extra={
        <Space>
          <span>{t('withdrawals.openOnly')}</span>
          <Switch aria-label={t('withdrawals.openOnly')} checked={openOnly} onChange={setOpenOnly} />
        </Space>
      }
    >
      {incidents.isError && <QueryState query={incidents} />}
      <Table
        size="small"
        rowKey="id"
        loading={incidents.isFetching}
        pagination={false}
        dataSource={incidents.data ?? []}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('withdrawals.network'), dataIndex: 'networkId' },
          { title: t('withdrawals.kind'), dataIndex: 'kind' },
          { title: t('withdrawals.detail'), dataIndex: 'detail' },
          { title: t('common.createdAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('withdrawals.resolved'), dataIndex: 'resolvedAt', render: formatTime },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, i) =>
              i.resolvedAt ? null : (
                <Button size="small" onClick={() => setResolving(i)}>
                  {t('withdrawals.resolve')}
                </Button>
              ),
          },
        ]}
      />
      {resolving && (
        <ReasonModal
          title={t('withdrawals.resolveTitle', { id: resolving.id })}
          okText={t('withdrawals.resolve')}
          label={t('withdrawals.resolution')}
          busy={resolve.isPending}
          onSubmit={(resolution) => resolve.mutate({ id: resolving.id, resolution })}
          onClose={() => setResolving(null)}
        />
      )}
    </Card>
  );
}

export default function WithdrawalsPage() {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.withdrawals')}</Typography.Title>
      <ReviewQueue />
      <Incidents />
    </Space>
  );
}
