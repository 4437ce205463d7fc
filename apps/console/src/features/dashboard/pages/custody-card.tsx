import type { DashboardData } from '@coffer/contract/admin';
import { formatAmount } from '@coffer/contract/rules';
import { Alert, Button, Card, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, amountColumn } from '../../../components/amount';
import { formatTime } from '../../../lib/format';
import { FundModal } from './fund-modal';

/**
 * Custody per network at the latest reconciliation (hot, cold, deposit addresses, the
 * operator's float, drift: docs/decisions/038), the open below-floor alerts, and the action
 * that books a funding of the hot wallet.
 */
export function CustodyCard({ data }: { data: DashboardData }) {
  const { t } = useTranslation();
  const [funding, setFunding] = useState(false);
  return (
    <Card
      title={t('dashboard.custody')}
      extra={
        <Button disabled={data.custody.length === 0} onClick={() => setFunding(true)}>
          {t('dashboard.fund')}
        </Button>
      }
    >
      {funding && <FundModal networks={data.custody} onClose={() => setFunding(false)} />}
      {data.hotAlerts.map((a) => (
        <Alert
          key={a.networkId}
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={`${t('dashboard.hotAlerts')}: ${a.code}`}
          description={a.detail}
        />
      ))}
      <Table
        size="small"
        rowKey="networkId"
        pagination={false}
        locale={{ emptyText: t('dashboard.noCustody') }}
        dataSource={data.custody}
        columns={[
          { title: t('common.currency'), dataIndex: 'code' },
          { title: t('dashboard.network'), dataIndex: 'networkName' },
          ...(['hot', 'cold', 'depositAddresses', 'float'] as const).map((key) => ({
            title: t(`dashboard.${key}`),
            dataIndex: key,
            ...amountColumn,
            render: (v: string, row: { code: string }) => <Amount value={v} currency={row.code} withCode={false} />,
          })),
          {
            title: t('dashboard.drift'),
            dataIndex: 'drift',
            ...amountColumn,
            render: (drift: string, row) => (
              // Exact, never cut to the display precision: a drift below it still matters.
              <Tag color={row.ok ? 'green' : 'red'} className="amount">
                {formatAmount(drift)}
              </Tag>
            ),
          },
          { title: t('dashboard.block'), dataIndex: 'block' },
          { title: t('common.time'), dataIndex: 'takenAt', render: (v: string) => formatTime(v) },
        ]}
      />
    </Card>
  );
}
