import type { DashboardData } from '@coffer/contract/admin';
import type { FundHotWalletBody } from '@coffer/contract/chain';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal';
import { REASON_MAX, reasonRules, requiredRule } from '../../../lib/form-rules';
import { useWrite } from '../../../lib/use-write';
import { DASHBOARD_KEY } from '../api/dashboard';
import { fundHotWallet } from '../api/fund-hot-wallet';

/** Book a funding of the hot wallet: the server checks the transaction on chain and books it once. */
export function FundModal({ networks, onClose }: { networks: DashboardData['custody']; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FundHotWalletBody>();
  const save = useWrite((body: FundHotWalletBody) => fundHotWallet({ ...body, txHash: body.txHash.trim() }), {
    invalidate: DASHBOARD_KEY,
    done: onClose,
    success: (d) => (d.replayed ? t('dashboard.fundReplayed') : t('dashboard.fundBooked', { amount: d.amount })),
  });
  return (
    <FormModal title={t('dashboard.fund')} okText={t('common.confirm')} form={form} busy={save.isPending} onClose={onClose}>
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} initialValues={{ networkId: networks[0]?.networkId }}>
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
