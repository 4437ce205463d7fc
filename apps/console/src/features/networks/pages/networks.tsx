import type { AdminNetwork } from '@coffer/contract/network-admin';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state';
import { NetworkEdit } from '../components/network-edit';
import { useNetworks } from '../api/networks';
import { showSetting } from '../lib/settings';

/** Every network and its settings; an operator changes them here or with `npm run network:set`. */
export default function NetworksPage() {
  const { t } = useTranslation();
  const networks = useNetworks();
  const [editing, setEditing] = useState<AdminNetwork | null>(null);
  const words = { none: t('networks.none'), on: t('networks.on'), off: t('networks.off') };
  const amount = (key: keyof AdminNetwork) => ({
    title: t(`networks.field.${key}`),
    key,
    render: (_: unknown, n: AdminNetwork) => showSetting('amount', n[key], n.code, words),
  });
  const onOff = (on: boolean) => <Tag color={on ? 'green' : 'default'}>{on ? words.on : words.off}</Tag>;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.networks')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('networks.intro')}</Typography.Paragraph>
      <Card>
        <QueryState query={networks} />
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={networks.data ?? []}
          columns={[
            {
              title: t('networks.network'),
              key: 'network',
              fixed: 'left',
              render: (_, n) => (
                <Space orientation="vertical" size={0}>
                  <Typography.Text strong>{`${n.code} · ${n.name}`}</Typography.Text>
                  <Typography.Text type="secondary">
                    {t('networks.chain', { id: n.chainId })} {n.local && <Tag>{t('networks.local')}</Tag>}
                    {n.payoutsFrozen && <Tag color="red">{t('networks.frozen')}</Tag>}
                  </Typography.Text>
                </Space>
              ),
            },
            { title: t('networks.field.depositEnabled'), key: 'dep', render: (_, n) => onOff(n.depositEnabled) },
            { title: t('networks.field.withdrawEnabled'), key: 'wd', render: (_, n) => onOff(n.withdrawEnabled) },
            { title: t('networks.field.confirmations'), dataIndex: 'confirmations' },
            amount('minDeposit'),
            amount('withdrawFee'),
            amount('minWithdraw'),
            amount('maxWithdraw'),
            amount('dailyWithdrawLimit'),
            amount('reviewThreshold'),
            {
              title: t('networks.field.contract'),
              key: 'contract',
              render: (_, n) => (n.native ? t('networks.nativeCoin') : <Typography.Text code>{n.contract ?? words.none}</Typography.Text>),
            },
            {
              title: t('networks.field.gasPriceCapWei'),
              key: 'cap',
              render: (_, n) => showSetting('wei', n.gasPriceCapWei, n.code, words),
            },
            amount('hotCeiling'),
            amount('hotFloor'),
            {
              title: t('networks.field.coldAddress'),
              key: 'cold',
              render: (_, n) => (n.coldAddress ? <Typography.Text code>{n.coldAddress}</Typography.Text> : words.none),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              fixed: 'right',
              render: (_, n) => (
                <Button size="small" onClick={() => setEditing(n)} aria-label={t('networks.edit', { network: `${n.code} · ${n.name}` })}>
                  {t('common.edit')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      {editing && <NetworkEdit network={editing} onClose={() => setEditing(null)} />}
    </Space>
  );
}
