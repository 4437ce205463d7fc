import type { OperatorAlert } from '@coffer/contract/alerts';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state';
import { ReasonModal } from '../../../components/reason-modal';
import { formatTime } from '../../../lib/format';
import { useAcknowledgeAlert } from '../api/acknowledge-alert';
import { useAlerts } from '../api/alerts';
import { alertAction, alertWhat } from '../components/alert-text';

/** Operator alerts: the open ones (acknowledge with a reason) and the recently resolved. */
export default function AlertsPage() {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const [asking, setAsking] = useState<OperatorAlert | null>(null);
  const ack = useAcknowledgeAlert({ done: () => setAsking(null), success: () => t('alerts.acknowledged') });

  const subject = (a: OperatorAlert) =>
    a.subjectType === 'withdrawal'
      ? t('alerts.subject.withdrawal', { id: a.subjectId, network: a.networkName ?? '' })
      : a.subjectType === 'incident'
        ? t('alerts.subject.incident', { id: a.subjectId, network: a.networkName ?? t('alerts.wholeChain') })
        : t('alerts.subject.network', { network: a.networkName ?? '' });

  const columns = (open: boolean) => [
    {
      title: t('alerts.kindTitle'),
      render: (_: unknown, a: OperatorAlert) => <Tag color={open ? 'red' : 'default'}>{t(`alerts.kind.${a.kind}`)}</Tag>,
    },
    { title: t('alerts.subjectTitle'), render: (_: unknown, a: OperatorAlert) => subject(a) },
    {
      title: t('alerts.whatTitle'),
      render: (_: unknown, a: OperatorAlert) => (
        <Space orientation="vertical" size={0}>
          <span>{alertWhat(t, a)}</span>
          {open && <Typography.Text type="secondary">{alertAction(t, a)}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('alerts.since'), dataIndex: 'since', render: formatTime },
    open
      ? {
          title: t('alerts.state'),
          render: (_: unknown, a: OperatorAlert) =>
            a.acknowledgedAt ? (
              <Space orientation="vertical" size={0}>
                <Tag color="blue">{t('alerts.acknowledgedBy', { email: a.acknowledgedBy ?? '' })}</Tag>
                <Typography.Text type="secondary">{a.acknowledgeReason}</Typography.Text>
              </Space>
            ) : (
              <Button onClick={() => setAsking(a)} data-testid={`alert-ack-${a.id}`}>
                {t('alerts.acknowledge')}
              </Button>
            ),
        }
      : { title: t('alerts.resolvedAt'), dataIndex: 'resolvedAt', render: formatTime },
  ];

  const data = alerts.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('alerts.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('alerts.intro')}</Typography.Paragraph>
      <QueryState query={alerts} />
      {data && (
        <>
          <Card title={t('alerts.open', { count: data.open.length })}>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={data.open}
              columns={columns(true)}
              locale={{ emptyText: t('alerts.noneOpen') }}
              data-testid="alerts-open"
            />
          </Card>
          <Card title={t('alerts.resolved')}>
            <Table
              rowKey="id"
              size="small"
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              dataSource={data.resolved}
              columns={columns(false)}
              data-testid="alerts-resolved"
            />
          </Card>
        </>
      )}
      {asking && (
        <ReasonModal
          title={t('alerts.acknowledgeTitle', { what: t(`alerts.kind.${asking.kind}`), subject: subject(asking) })}
          okText={t('alerts.acknowledge')}
          busy={ack.isPending}
          onSubmit={(reason) => ack.mutate({ id: asking.id, reason })}
          onClose={() => setAsking(null)}
        />
      )}
    </Space>
  );
}
