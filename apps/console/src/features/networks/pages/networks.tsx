import type { AdminNetwork } from '@coffer/contract/network-admin';
import { Button, Card, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state';
import { NetworkEdit } from '../components/network-edit';
import { useNetworks } from '../api/networks';
import { showSetting } from '../lib/settings';

type Words = { none: string; on: string; off: string };

/** The table's columns: every setting, amounts exact with the currency (settings are details). */
function networkColumns(t: TFunction, words: Words, edit: (n: AdminNetwork) => void): TableColumnsType<AdminNetwork> {
  const amount = (key: keyof AdminNetwork) => ({
    title: t(`networks.field.${key}`),
    key,
    render: (_: unknown, n: AdminNetwork) => showSetting('amount', n[key], n.code, words),
  });
  const onOff = (on: boolean) => <Tag color={on ? 'green' : 'default'}>{on ? words.on : words.off}</Tag>;
  const address = (a: string | null) => (a ? <Typography.Text code>{a}</Typography.Text> : words.none);
  return [
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
    amount('secondApprovalAbove'),
    { title: t('networks.field.contract'), key: 'contract', render: (_, n) => (n.native ? t('networks.nativeCoin') : address(n.contract)) },
    {
      title: t('networks.field.gasPriceCapWei'),
      key: 'cap',
      render: (_, n) => (n.family === 'utxo' ? t('networks.noGas') : showSetting('wei', n.gasPriceCapWei, n.code, words)),
    },
    amount('hotCeiling'),
    amount('hotFloor'),
    { title: t('networks.field.coldAddress'), key: 'cold', render: (_, n) => address(n.coldAddress) },
    { title: t('networks.field.explorerUrl'), key: 'explorer', render: (_, n) => address(n.explorerUrl) },
    { title: t('networks.field.explorerTxUrl'), key: 'explorerTx', render: (_, n) => address(n.explorerTxUrl) },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, n) => (
        <Button size="small" onClick={() => edit(n)} aria-label={t('networks.edit', { network: `${n.code} · ${n.name}` })}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];
}

/** Every network and its settings; an operator changes them here or with `npm run network:set`. */
export default function NetworksPage() {
  const { t } = useTranslation();
  const networks = useNetworks();
  const [editing, setEditing] = useState<AdminNetwork | null>(null);
  const words = { none: t('networks.none'), on: t('networks.on'), off: t('networks.off') };
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
          columns={networkColumns(t, words, setEditing)}
        />
      </Card>
      {editing && <NetworkEdit network={editing} onClose={() => setEditing(null)} />}
    </Space>
  );
}
