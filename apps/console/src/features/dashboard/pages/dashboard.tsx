import type { AuditReport } from '@coffer/contract/ledger';
import { Alert, Button, Card, Col, Descriptions, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, amountColumn } from '../../../components/amount';
import { AuditChecks } from '../../../components/audit-checks';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/format';
import { useRunAudit } from '../../../lib/run-audit';
import { useDashboard } from '../api/dashboard';
import { CustodyCard } from './custody-card';

export default function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  const [report, setReport] = useState<AuditReport | null>(null);
  const audit = useRunAudit({ done: (data) => setReport(data.report) });
  const data = dashboard.data;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.dashboard')}</Typography.Title>
      <QueryState query={dashboard} />
      {data && (
        <>
          {data.chainLoops
            .filter((loop) => !loop.healthy)
            .map((loop) => (
              <Alert
                key={loop.chainId}
                type="error"
                showIcon
                data-testid="chain-unhealthy"
                title={t('dashboard.chainUnhealthy', { chainId: loop.chainId, since: formatTime(loop.since) })}
                description={`${t('dashboard.chainUnhealthyHint')}${loop.lastError ? ` (${loop.lastError})` : ''}`}
              />
            ))}
          <Row gutter={16}>
            <Col span={6}>
              <Card>
                <Statistic title={t('dashboard.usersTotal')} value={data.users.total} />
              </Card>
            </Col>
            <Col span={6}>
              <Card>
                <Statistic title={t('dashboard.usersNew24h')} value={data.users.new24h} />
              </Card>
            </Col>
            <Col span={6}>
              <Card>
                <Statistic title={t('dashboard.usersDisabled')} value={data.users.disabled} />
              </Card>
            </Col>
            <Col span={6}>
              <Card>
                <Statistic title={t('dashboard.withdrawalsInReview')} value={data.withdrawalsInReview} />
              </Card>
            </Col>
          </Row>
          <Card title={t('dashboard.balances')}>
            <Table
              size="small"
              rowKey="currencyId"
              pagination={false}
              dataSource={data.balances}
              columns={[
                { title: t('common.currency'), dataIndex: 'code' },
                ...(['usersAvailable', 'usersFrozen', 'house', 'fees', 'world', 'adjustments'] as const).map((key) => ({
                  title: t(`dashboard.${key}`),
                  dataIndex: key,
                  ...amountColumn,
                  render: (v: string, row: { code: string }) => <Amount value={v} currency={row.code} withCode={false} />,
                })),
              ]}
            />
          </Card>
          <CustodyCard data={data} />
          <Card title={t('dashboard.swapVolume')}>
            <Table
              size="small"
              rowKey="currencyId"
              pagination={false}
              dataSource={data.swapVolume}
              columns={[
                { title: t('common.currency'), dataIndex: 'code' },
                ...(['sold24h', 'bought24h', 'sold7d', 'bought7d'] as const).map((key) => ({
                  title: t(`dashboard.${key}`),
                  dataIndex: key,
                  ...amountColumn,
                  render: (v: string, row: { code: string }) => <Amount value={v} currency={row.code} withCode={false} />,
                })),
              ]}
            />
          </Card>
          <Card
            title={t('dashboard.lastAudit')}
            extra={
              <Button type="primary" loading={audit.isPending} onClick={() => audit.mutate()}>
                {t('audit.run')}
              </Button>
            }
          >
            {data.lastAudit ? (
              <Descriptions size="small" column={3}>
                <Descriptions.Item label={t('audit.result')}>
                  <Tag color={data.lastAudit.ok ? 'green' : 'red'}>{data.lastAudit.ok ? t('audit.pass') : t('audit.fail')}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('common.actor')}>{data.lastAudit.actor}</Descriptions.Item>
                <Descriptions.Item label={t('common.time')}>{formatTime(data.lastAudit.ranAt)}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t('dashboard.noAudit')}</Typography.Text>
            )}
            {report && <AuditChecks report={report} />}
          </Card>
          <Typography.Text type="secondary">
            {t('dashboard.generatedAt')}: {formatTime(data.generatedAt)}
          </Typography.Text>
        </>
      )}
    </Space>
  );
}
