import type { ActivityAdmin } from '@coffer/contract/activity';
import { Form, Input, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../../components/amount';
import { FormModal } from '../../../components/form-modal';
import { MoneyConfirm } from '../../../components/money-confirm';
import { newIdempotencyKey } from '@coffer/api-client/idempotency';
import { AMOUNT_INPUT_MAX, amountRule, REASON_MAX, reasonRules, requiredRule } from '../../../lib/form-rules';
import { useFundActivity } from '../api/fund-activity';

/** Moves money from the adjustments account into the activity's prize account, after a confirm step with the figures. */
export function FundModal({ activity, onClose }: { activity: ActivityAdmin; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const [confirming, setConfirming] = useState<{ amount: string; reason: string } | null>(null);
  // One key for this dialog: a second click after a lost answer replays instead of funding twice.
  const key = useRef(newIdempotencyKey());
  const fund = useFundActivity({
    success: (data) => t('activities.fundDone', data),
    done: onClose,
    failed: () => {
      key.current = newIdempotencyKey();
    },
  });
  if (confirming) {
    return (
      <MoneyConfirm
        title={t('activities.fundConfirmTitle', { id: activity.id })}
        okText={t('activities.fundConfirm')}
        busy={fund.isPending}
        figures={[
          { key: 'amount', label: t('money.amount'), value: <Amount value={confirming.amount.trim()} currency={activity.prizeCurrency} /> },
          { key: 'currency', label: t('money.currency'), value: activity.prizeCurrency },
          { key: 'from', label: t('money.from'), value: t('activities.fundFrom') },
          { key: 'to', label: t('money.to'), value: t('activities.fundTo', { id: activity.id }) },
          { key: 'reason', label: t('money.reason'), value: confirming.reason },
        ]}
        onConfirm={() =>
          fund.mutate({
            body: { id: activity.id, amount: confirming.amount.trim(), reason: confirming.reason },
            idempotencyKey: key.current,
          })
        }
        onClose={() => setConfirming(null)}
      />
    );
  }
  return (
    <FormModal
      title={t('activities.fundTitle', { id: activity.id })}
      okText={t('activities.fund')}
      form={form}
      busy={fund.isPending}
      onClose={onClose}
    >
      <Typography.Paragraph>
        {t('activities.fundState', { funded: activity.funded, total: activity.prizeTotal, code: activity.prizeCurrency })}
      </Typography.Paragraph>
      <Form form={form} name="fund-activity" layout="vertical" onFinish={setConfirming}>
        <Form.Item name="amount" label={`${t('common.amount')} (${activity.prizeCurrency})`} rules={[requiredRule(t), amountRule(t)]}>
          <Input inputMode="decimal" maxLength={AMOUNT_INPUT_MAX} />
        </Form.Item>
        <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
          <Input.TextArea rows={2} maxLength={REASON_MAX} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
