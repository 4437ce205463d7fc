import type { AdminSwapPair, HouseLimit } from '@coffer/contract/admin';
import { SWAP_BPS_MAX } from '@coffer/contract/rules';
import { Button, Card, Form, Input, InputNumber, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/format';
import { REASON_MAX, amountRule, optionalAmount, reasonRules, requiredRule } from '../../../lib/form-rules';
import { useHouseLimits } from '../api/house-limits';
import { useSwapPairs } from '../api/pairs';
import { useSetHouseLimit } from '../api/set-house-limit';
import { useUpdateSwapPair } from '../api/update-pair';

interface PairForm {
  midRate: string;
  spreadBps: number;
  feeBps: number;
  minAmount?: string;
  maxAmount?: string;
  enabled: boolean;
  reason: string;
}

function PairModal({ pair, onClose }: { pair: AdminSwapPair; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PairForm>();
  const save = useUpdateSwapPair(pair.id, {
    done: onClose,
    success: (data) => (data.changed ? t('common.saved') : t('swap.unchanged')),
  });
  const submit = (v: PairForm) =>
    save.mutate({
      midRate: v.midRate.trim(),
      spreadBps: v.spreadBps,
      feeBps: v.feeBps,
      minAmount: optionalAmount(v.minAmount),
      maxAmount: optionalAmount(v.maxAmount),
      enabled: v.enabled,
      reason: v.reason,
    });
  return (
    <FormModal
      title={t('swap.editPair', { pair: `${pair.fromCode} → ${pair.toCode}` })}
      okText={t('common.save')}
      form={form}
      busy={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          midRate: pair.midRate,
          spreadBps: pair.spreadBps,
          feeBps: pair.feeBps,
          minAmount: pair.minAmount ?? '',
          maxAmount: pair.maxAmount ?? '',
          enabled: pair.enabled,
        }}
      >
        <Form.Item name="midRate" label={t('swap.midRate')} rules={[requiredRule(t), amountRule(t)]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Space>
          <Form.Item name="spreadBps" label={t('swap.spreadBps')} rules={[{ required: true, message: t('validation.required') }]}>
            <InputNumber min={0} max={SWAP_BPS_MAX} precision={0} />
          </Form.Item>
          <Form.Item name="feeBps" label={t('swap.feeBps')} rules={[{ required: true, message: t('validation.required') }]}>
            <InputNumber min={0} max={SWAP_BPS_MAX} precision={0} />
          </Form.Item>
          <Form.Item name="enabled" label={t('swap.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Space>
          <Form.Item name="minAmount" label={t('swap.minAmount')} rules={[amountRule(t)]}>
            <Input inputMode="decimal" placeholder={t('swap.noLimit')} />
          </Form.Item>
          <Form.Item name="maxAmount" label={t('swap.maxAmount')} rules={[amountRule(t)]}>
            <Input inputMode="decimal" placeholder={t('swap.noLimit')} />
          </Form.Item>
        </Space>
        <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
          <Input.TextArea rows={2} maxLength={REASON_MAX} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

function LimitModal({ limit, onClose }: { limit: HouseLimit; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ limit: string; reason: string }>();
  const save = useSetHouseLimit({ done: onClose, success: (data) => (data.changed ? t('common.saved') : t('swap.unchanged')) });
  return (
    <FormModal
      title={t('swap.setLimit', { code: limit.code })}
      okText={t('common.save')}
      form={form}
      busy={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate({ currencyId: limit.currencyId, limit: v.limit.trim(), reason: v.reason })}
        initialValues={{ limit: limit.limit ?? '' }}
      >
        <Form.Item name="limit" label={t('swap.houseLimit')} rules={[requiredRule(t), amountRule(t)]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
          <Input.TextArea rows={2} maxLength={REASON_MAX} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

export default function SwapPage() {
  const { t } = useTranslation();
  const pairs = useSwapPairs();
  const limits = useHouseLimits();
  const [editing, setEditing] = useState<AdminSwapPair | null>(null);
  const [limit, setLimit] = useState<HouseLimit | null>(null);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.swap')}</Typography.Title>
      <Card title={t('swap.pairs')}>
        <QueryState query={pairs} />
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={pairs.data ?? []}
          columns={[
            { title: t('swap.pair'), key: 'pair', render: (_, p) => `${p.fromCode} → ${p.toCode}` },
            { title: t('swap.midRate'), dataIndex: 'midRate' },
            { title: t('swap.spreadBps'), dataIndex: 'spreadBps' },
            { title: t('swap.feeBps'), dataIndex: 'feeBps' },
            { title: t('swap.minAmount'), dataIndex: 'minAmount', render: (v: string | null) => v ?? '—' },
            { title: t('swap.maxAmount'), dataIndex: 'maxAmount', render: (v: string | null) => v ?? '—' },
            {
              title: t('swap.enabled'),
              dataIndex: 'enabled',
              render: (on: boolean) => <Tag color={on ? 'green' : 'default'}>{on ? t('common.yes') : t('common.no')}</Tag>,
            },
            { title: t('common.updatedAt'), dataIndex: 'updatedAt', render: formatTime },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, p) => (
                <Button size="small" onClick={() => setEditing(p)} aria-label={t('swap.editPair', { pair: `${p.fromCode} → ${p.toCode}` })}>
                  {t('common.edit')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <Card title={t('swap.houseLimits')}>
        <QueryState query={limits} />
        <Table
          size="small"
          rowKey="currencyId"
          pagination={false}
          dataSource={limits.data ?? []}
          columns={[
            { title: t('common.currency'), dataIndex: 'code' },
            { title: t('swap.houseLimit'), dataIndex: 'limit', render: (v: string | null) => v ?? '—' },
            { title: t('swap.houseBalance'), dataIndex: 'balance' },
            { title: t('swap.houseFloor'), dataIndex: 'minBalance' },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, l) => (
                <Button size="small" onClick={() => setLimit(l)} aria-label={t('swap.setLimit', { code: l.code })}>
                  {t('common.edit')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      {editing && <PairModal pair={editing} onClose={() => setEditing(null)} />}
      {limit && <LimitModal limit={limit} onClose={() => setLimit(null)} />}
    </Space>
  );
}
