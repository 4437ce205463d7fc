import type { DashboardData } from '@coffer/contract/admin';
import type { FundHotWalletBody } from '@coffer/contract/chain';
import { Form, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal';
import { MoneyConfirm } from '../../../components/money-confirm';
import { REASON_MAX, reasonRules, requiredRule } from '../../../lib/form-rules';
import { useFundHotWallet } from '../api/fund-hot-wallet';

/**
 * Book a funding of the hot wallet: the server checks the transaction on chain and books it once.
 * A confirm step repeats the network, currency, transaction and reason before anything is sent.
 */
export function FundModal({ networks, onClose }: { networks: DashboardData['custody']; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FundHotWalletBody>();
  const [confirming, setConfirming] = useState<FundHotWalletBody | null>(null);
  const save = useFundHotWallet({
    done: onClose,
    success: (d) => (d.replayed ? t('dashboard.fundReplayed') : t('dashboard.fundBooked', { amount: d.amount })),
  });
  if (confirming) {
    const n = networks.find((x) => x.networkId === confirming.networkId);
    const name = n ? `${n.code} · ${n.networkName}` : `#${confirming.networkId}`;
    return (
      <MoneyConfirm
        title={t('dashboard.fundConfirmTitle')}
        okText={t('dashboard.fundConfirm')}
        busy={save.isPending}
        figures={[
          { key: 'network', label: t('money.network'), value: name },
          { key: 'currency', label: t('money.currency'), value: n?.code ?? '—' },
          { key: 'amount', label: t('money.amount'), value: t('dashboard.fundAmountFromChain') },
          { key: 'tx', label: t('money.txHash'), value: <Typography.Text code>{confirming.txHash.trim()}</Typography.Text> },
          { key: 'to', label: t('money.to'), value: t('dashboard.fundTo', { network: name }) },
          { key: 'reason', label: t('money.reason'), value: confirming.reason },
        ]}
        onConfirm={() => save.mutate({ ...confirming, txHash: confirming.txHash.trim() })}
        onClose={() => setConfirming(null)}
      />
    );
  }
  return (
    <FormModal title={t('dashboard.fund')} okText={t('common.confirm')} form={form} busy={save.isPending} onClose={onClose}>
      <Form
        form={form}
        name="fund-hot-wallet"
        layout="vertical"
        onFinish={setConfirming}
        initialValues={{ networkId: networks[0]?.networkId }}
        preserve
      >
        <Form.Item name="networkId" label={t('dashboard.network')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select options={networks.map((n) => ({ value: n.networkId, label: `${n.code} · ${n.networkName}` }))} />
        </Form.Item>
        <Form.Item
          name="txHash"
          label={t('dashboard.txHash')}
          rules={[requiredRule(t), { pattern: /^\s*0x[0-9a-fA-F]{64}\s*$/, message: t('dashboard.txHashInvalid') }]}
        >
          <Input maxLength={70} placeholder="0x…" />
        </Form.Item>
        <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
          <Input maxLength={REASON_MAX} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
