import type { AdjustBody } from '@coffer/contract/ledger';
import { Button, Card, Descriptions, Form, Input, Modal, Radio, Select } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '@coffer/api-client/idempotency';
import { AMOUNT_INPUT_MAX, amountRule, REASON_MAX, reasonRules, requiredRule } from '../../../lib/form-rules';
import { useCurrencies } from '../../../lib/currencies';
import { useAdjust } from '../api/adjust';

interface AdjustForm {
  user: string;
  currency: string;
  direction: 'credit' | 'debit';
  amount: string;
  reason: string;
}

const UID_RE = /^[1-9]\d{0,15}$/;

/** "12" is a UID, anything else an e-mail (the server checks which exists). */
function toBody(v: AdjustForm): AdjustBody {
  const who = v.user.trim();
  const target = UID_RE.test(who) ? { uid: Number(who) } : { email: who };
  return { ...target, currency: v.currency, direction: v.direction, amount: v.amount.trim(), reason: v.reason };
}

/** The figures repeated before money moves: who, which way, how much, why. */
function ConfirmAdjust({ form, busy, onOk, onCancel }: { form: AdjustForm; busy: boolean; onOk: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('ledger.confirmTitle')}
      okText={t('ledger.confirm')}
      okButtonProps={{ danger: form.direction === 'debit', loading: busy }}
      onOk={onOk}
      onCancel={onCancel}
    >
      <Descriptions size="small" column={1} bordered data-testid="adjust-confirm">
        <Descriptions.Item label={t('ledger.user')}>{form.user.trim()}</Descriptions.Item>
        <Descriptions.Item label={t('ledger.direction')}>{t(`ledger.${form.direction}`)}</Descriptions.Item>
        <Descriptions.Item label={t('common.amount')}>
          <strong>
            {form.direction === 'debit' ? '−' : '+'}
            {form.amount.trim()} {form.currency}
          </strong>
        </Descriptions.Item>
        <Descriptions.Item label={t('common.reason')}>{form.reason}</Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}

/** Credit or debit a user: a confirm step, then applied at once or (above the threshold) sent to a second operator. */
export function AdjustCard() {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const [form] = Form.useForm<AdjustForm>();
  const [confirming, setConfirming] = useState<AdjustForm | null>(null);
  // One key per intended adjustment: a resubmit after a lost answer replays, never doubles.
  const key = useRef(newIdempotencyKey());
  const save = useAdjust({
    success: (data) =>
      data.status === 'pending'
        ? t('ledger.pendingDone', { id: data.request.id })
        : t(data.replayed ? 'ledger.replayed' : 'ledger.done', data),
    done: () => {
      key.current = newIdempotencyKey();
      form.resetFields();
      setConfirming(null);
    },
  });
  return (
    <Card title={t('ledger.adjust')}>
      <Form
        form={form}
        // Field ids carry the form's name: the reason dialogs on this page have a field "reason" too.
        name="adjust"
        layout="vertical"
        style={{ maxWidth: 520 }}
        initialValues={{ direction: 'credit' }}
        // Any edit after a refusal is another request: a new key.
        onValuesChange={() => {
          if (save.isError) key.current = newIdempotencyKey();
        }}
        onFinish={setConfirming}
      >
        <Form.Item name="user" label={t('ledger.user')} rules={[{ required: true, whitespace: true, message: t('validation.uidOrEmail') }]}>
          <Input maxLength={254} />
        </Form.Item>
        <Form.Item name="currency" label={t('common.currency')} rules={[requiredRule(t)]}>
          <Select
            loading={currencies.isPending}
            options={(currencies.data ?? []).map((c) => ({ value: c.code, label: c.code }))}
            showSearch
          />
        </Form.Item>
        <Form.Item name="direction" label={t('ledger.direction')}>
          <Radio.Group
            options={[
              { value: 'credit', label: t('ledger.credit') },
              { value: 'debit', label: t('ledger.debit') },
            ]}
          />
        </Form.Item>
        <Form.Item name="amount" label={t('common.amount')} rules={[requiredRule(t), amountRule(t)]}>
          <Input inputMode="decimal" maxLength={AMOUNT_INPUT_MAX} />
        </Form.Item>
        <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
          <Input.TextArea rows={2} maxLength={REASON_MAX} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('ledger.submit')}
        </Button>
      </Form>
      {confirming && (
        <ConfirmAdjust
          form={confirming}
          busy={save.isPending}
          onOk={() => save.mutate({ body: toBody(confirming), idempotencyKey: key.current })}
          onCancel={() => setConfirming(null)}
        />
      )}
    </Card>
  );
}
