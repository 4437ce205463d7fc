import type { AdjustRequest } from '@coffer/contract/ledger';
import { Button, Card, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, amountColumn } from '../../../components/amount';
import { ReasonModal } from '../../../components/reason-modal';
import { formatTime } from '../../../lib/format';
import { usePendingAdjustRequests } from '../api/adjust-requests';
import { useDecideAdjustRequest } from '../api/decide-adjust-request';

type Decision = { request: AdjustRequest; decision: 'approve' | 'reject' };

/** Adjustments waiting for a second operator: the figures, who asked and why; approve or reject with a reason. */
export function AdjustRequestsCard() {
  const { t } = useTranslation();
  const requests = usePendingAdjustRequests();
  const [asking, setAsking] = useState<Decision | null>(null);
  const decide = useDecideAdjustRequest({
    success: (data) => t(data.status === 'approved' ? 'ledger.approvedDone' : 'ledger.rejectedDone', { id: data.id }),
    done: () => setAsking(null),
  });
  return (
    <Card title={t('ledger.requests')} data-testid="adjust-requests">
      <Typography.Paragraph type="secondary">{t('ledger.requestsHint')}</Typography.Paragraph>
      <Table
        size="small"
        rowKey="id"
        loading={requests.isFetching}
        dataSource={requests.data ?? []}
        pagination={false}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('common.email'), dataIndex: 'email' },
          { title: t('common.amount'), ...amountColumn, render: (_, r: AdjustRequest) => <Amount value={r.amount} currency={r.code} /> },
          { title: t('common.reason'), dataIndex: 'reason' },
          { title: t('ledger.requestedBy'), dataIndex: 'requestedBy' },
          { title: t('common.time'), dataIndex: 'requestedAt', render: formatTime },
          {
            title: t('common.actions'),
            render: (_, r: AdjustRequest) => (
              <Space>
                <Button size="small" type="primary" onClick={() => setAsking({ request: r, decision: 'approve' })}>
                  {t('ledger.approve')}
                </Button>
                <Button size="small" danger onClick={() => setAsking({ request: r, decision: 'reject' })}>
                  {t('ledger.reject')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {asking && (
        <ReasonModal
          title={t(asking.decision === 'approve' ? 'ledger.approveTitle' : 'ledger.rejectTitle', {
            id: asking.request.id,
            amount: `${asking.request.amount} ${asking.request.code}`,
            email: asking.request.email,
          })}
          okText={t(asking.decision === 'approve' ? 'ledger.approve' : 'ledger.reject')}
          danger={asking.decision === 'reject'}
          busy={decide.isPending}
          onSubmit={(reason) => decide.mutate({ id: asking.request.id, decision: asking.decision, reason })}
          onClose={() => setAsking(null)}
        />
      )}
    </Card>
  );
}
