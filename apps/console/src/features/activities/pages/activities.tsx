import type { ActivityAdmin } from '@coffer/contract/activity';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, amountColumn } from '../../../components/amount';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/format';
import { useActivities } from '../api/activities';
import { ActivityModal } from '../components/activity-modal';
import { FundModal } from '../components/fund-modal';
import { PayoutsModal } from '../components/payouts-modal';

const STATUS_COLORS = { upcoming: 'blue', live: 'green', ended: 'default', underfunded: 'red', paying: 'orange', paid: 'purple' } as const;

export default function ActivitiesPage() {
  const { t, i18n } = useTranslation();
  const activities = useActivities();
  const [editing, setEditing] = useState<ActivityAdmin | null | 'new'>(null);
  const [funding, setFunding] = useState<ActivityAdmin | null>(null);
  const [payouts, setPayouts] = useState<ActivityAdmin | null>(null);
  const en = i18n.language === 'en-US';

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3}>{t('nav.activities')}</Typography.Title>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('activities.new')}
        </Button>
      </Space>
      <QueryState query={activities} />
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={activities.data?.items ?? []}
        expandable={{
          expandedRowRender: (a) => (
            <Table
              size="small"
              rowKey="rankFrom"
              pagination={false}
              dataSource={a.prizes}
              columns={[
                { title: t('activities.rankFrom'), dataIndex: 'rankFrom' },
                { title: t('activities.rankTo'), dataIndex: 'rankTo' },
                {
                  title: `${t('activities.prize')} (${a.prizeCurrency})`,
                  dataIndex: 'amount',
                  ...amountColumn,
                  render: (v: string) => <Amount value={v} currency={a.prizeCurrency} withCode={false} />,
                },
              ]}
            />
          ),
        }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('content.title'), key: 'title', render: (_, a) => (en ? a.titleEn : a.titleZh) },
          { title: t('activities.metric'), dataIndex: 'metric', render: (m: ActivityAdmin['metric']) => t(`activities.metrics.${m}`) },
          { title: t('content.startsAt'), dataIndex: 'startsAt', render: formatTime },
          { title: t('content.endsAt'), dataIndex: 'endsAt', render: formatTime },
          { title: t('activities.prizeCurrency'), dataIndex: 'prizeCurrency' },
          ...(['prizeTotal', 'funded', 'paid'] as const).map((key) => ({
            title: t(`activities.${key}`),
            dataIndex: key,
            ...amountColumn,
            render: (v: string, a: ActivityAdmin) => <Amount value={v} currency={a.prizeCurrency} withCode={false} />,
          })),
          { title: t('activities.winners'), key: 'winners', render: (_, a) => `${a.winnersPaid} / ${a.winners}` },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (s: ActivityAdmin['status']) => <Tag color={STATUS_COLORS[s]}>{t(`activities.statuses.${s}`)}</Tag>,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, a) => (
              <Space>
                <Button size="small" onClick={() => setEditing(a)} aria-label={t('activities.edit', { id: a.id })}>
                  {t('common.edit')}
                </Button>
                <Button size="small" onClick={() => setFunding(a)} aria-label={t('activities.fundTitle', { id: a.id })}>
                  {t('activities.fund')}
                </Button>
                <Button size="small" onClick={() => setPayouts(a)} aria-label={t('activities.payoutsTitle', { id: a.id })}>
                  {t('activities.payouts')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && <ActivityModal activity={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {funding && <FundModal activity={funding} onClose={() => setFunding(null)} />}
      {payouts && <PayoutsModal activity={payouts} onClose={() => setPayouts(null)} />}
    </Space>
  );
}
