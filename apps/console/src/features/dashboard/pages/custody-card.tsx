import type { DashboardData } from '@coffer/contract/admin';
import { Alert, Button, Card, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
          { title: t('dashboard.hot'), dataIndex: 'hot' },
          { title: t('dashboard.cold'), dataIndex: 'cold' },
          { title: t('dashboard.depositAddresses'), dataIndex: 'depositAddresses' },
          { title: t('dashboard.float'), dataIndex: 'float' },
          {
            title: t('dashboard.drift'),
            dataIndex: 'drift',
            render: (drift: string, row) => <Tag color={row.ok ? 'green' : 'red'}>{drift}</Tag>,
          },
          { title: t('dashboard.block'), dataIndex: 'block' },
          { title: t('common.time'), dataIndex: 'takenAt', render: (v: string) => formatTime(v) },
        ]}
      />
    </Card>
  );
}
