import type { AuditReport } from '@coffer/contract/ledger';
import { Button, Card, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, amountColumn } from '../../../components/amount';
import { AuditChecks } from '../../../components/audit-checks';
import { formatTime } from '../../../lib/format';
import { useAdjustments } from '../api/adjustments';
import { useRunAudit } from '../../../lib/run-audit';
import { AdjustCard } from '../components/adjust-card';
import { AdjustRequestsCard } from '../components/adjust-requests-card';

function AuditCard() {
  const { t } = useTranslation();
  const [report, setReport] = useState<AuditReport | null>(null);
  const run = useRunAudit({ done: (data) => setReport(data.report) });
  return (
    <Card
      title={t('ledger.audit')}
      extra={
        <Button type="primary" loading={run.isPending} onClick={() => run.mutate()}>
          {t('audit.run')}
        </Button>
      }
    >
      {report && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space>
            <Tag color={report.ok ? 'green' : 'red'}>{report.ok ? t('audit.pass') : t('audit.fail')}</Tag>
            <Typography.Text type="secondary">
              {t('audit.checkedAt')}: {formatTime(report.checkedAt)}
            </Typography.Text>
          </Space>
          <AuditChecks report={report} />
        </Space>
      )}
    </Card>
  );
}

function AdjustmentsCard() {
  const { t } = useTranslation();
  const [uid, setUid] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const log = useAdjustments({ uid: uid ?? undefined, page, pageSize: 20 });
  return (
    <Card
      title={t('ledger.log')}
      extra={
        <InputNumber<number>
          aria-label={t('ledger.filterUid')}
          placeholder={t('ledger.filterUid')}
          min={1}
          precision={0}
          value={uid}
          onChange={(value) => {
            setUid(value);
            setPage(1);
          }}
          style={{ width: 160 }}
        />
      }
    >
      <Table
        size="small"
        rowKey="id"
        loading={log.isFetching}
        dataSource={log.data?.list ?? []}
        pagination={{ current: page, pageSize: 20, total: log.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('common.uid'), dataIndex: 'uid' },
          { title: t('common.email'), dataIndex: 'email' },
          { title: t('common.currency'), dataIndex: 'code' },
          {
            title: t('common.amount'),
            dataIndex: 'amount',
            ...amountColumn,
            render: (v: string, r) => <Amount value={v} currency={r.code} withCode={false} />,
          },
          { title: t('common.reason'), dataIndex: 'reason' },
          { title: t('common.actor'), dataIndex: 'actor' },
          { title: t('common.time'), dataIndex: 'createdAt', render: formatTime },
        ]}
      />
    </Card>
  );
}

export default function LedgerPage() {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.ledger')}</Typography.Title>
      <AuditCard />
      <AdjustCard />
      <AdjustRequestsCard />
      <AdjustmentsCard />
    </Space>
  );
}
