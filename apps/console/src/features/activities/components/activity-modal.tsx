import type { ActivityAdmin, ActivityCreateBody, ActivityUpdateBody, PrizeTier } from '@coffer/contract/activity';
import { ACTIVITY_MAX_PRIZE_RANK, ACTIVITY_RULES_MAX, ACTIVITY_TITLE_MAX } from '@coffer/contract/rules';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { type BilingualText, BilingualFields } from '../../../components/bilingual-fields';
import { FormModal } from '../../../components/form-modal';
import { AMOUNT_INPUT_MAX, amountRule, REASON_MAX, requiredRule } from '../../../lib/form-rules';
import { fromIso } from '../../../lib/schedule';
import { useCurrencies } from '../../../lib/currencies';
import { useCreateActivity } from '../api/create-activity';
import { useUpdateActivity } from '../api/update-activity';

/** An activity's rules under each title: Markdown, up to the contract's ACTIVITY_RULES_MAX. */
const ACTIVITY_RULES: BilingualText = { name: 'rules', label: 'activities.rules', max: ACTIVITY_RULES_MAX, rows: 4 };

interface ActivityForm {
  titleZh: string;
  titleEn: string;
  rulesZh?: string;
  rulesEn?: string;
  metric: ActivityAdmin['metric'];
  metricCurrency?: string;
  minTransfer?: string;
  period: [Dayjs, Dayjs];
  minScore: string;
  prizeCurrency: string;
  prizes: PrizeTier[];
  reason?: string;
}

/** Titles, rules, metric, schedule and prize table of an activity; the API checks what may still change. */
function fieldsOf(v: ActivityForm): Omit<ActivityCreateBody, 'reason'> {
  const transfers = v.metric === 'transfers_sent';
  return {
    titleZh: v.titleZh.trim(),
    titleEn: v.titleEn.trim(),
    rulesZh: v.rulesZh ?? '',
    rulesEn: v.rulesEn ?? '',
    metric: v.metric,
    metricCurrency: transfers ? v.metricCurrency : undefined,
    minTransfer: transfers ? v.minTransfer?.trim() : undefined,
    startsAt: v.period[0].toISOString(),
    endsAt: v.period[1].toISOString(),
    minScore: v.minScore.trim(),
    prizeCurrency: v.prizeCurrency,
    prizes: v.prizes.map((p) => ({ rankFrom: p.rankFrom, rankTo: p.rankTo, amount: p.amount.trim() })),
  };
}

/** An update sends titles and rules always, the rest only when changed (they lock at the start). */
function changesOf(activity: ActivityAdmin, v: ActivityForm): ActivityUpdateBody {
  const next = fieldsOf(v);
  const body: ActivityUpdateBody = {
    id: activity.id,
    titleZh: next.titleZh,
    titleEn: next.titleEn,
    rulesZh: next.rulesZh,
    rulesEn: next.rulesEn,
    reason: v.reason?.trim() || undefined,
  };
  if (next.metric !== activity.metric) body.metric = next.metric;
  if ((next.metricCurrency ?? null) !== activity.metricCurrency) body.metricCurrency = next.metricCurrency;
  if ((next.minTransfer ?? null) !== activity.minTransfer) body.minTransfer = next.minTransfer;
  if (Date.parse(next.startsAt) !== Date.parse(activity.startsAt)) body.startsAt = next.startsAt;
  if (Date.parse(next.endsAt) !== Date.parse(activity.endsAt)) body.endsAt = next.endsAt;
  if (next.minScore !== activity.minScore) body.minScore = next.minScore;
  if (next.prizeCurrency !== activity.prizeCurrency) body.prizeCurrency = next.prizeCurrency;
  if (JSON.stringify(next.prizes) !== JSON.stringify(activity.prizes)) body.prizes = next.prizes;
  return body;
}

function initialOf(activity: ActivityAdmin | null): Partial<ActivityForm> {
  if (!activity)
    return { metric: 'swap_volume_usdt', minScore: '0', prizeCurrency: 'USDT', prizes: [{ rankFrom: 1, rankTo: 1, amount: '' }] };
  const starts = fromIso(activity.startsAt);
  const ends = fromIso(activity.endsAt);
  return {
    ...activity,
    metricCurrency: activity.metricCurrency ?? undefined,
    minTransfer: activity.minTransfer ?? undefined,
    period: starts && ends ? [starts, ends] : undefined,
  };
}

export function ActivityModal({ activity, onClose }: { activity: ActivityAdmin | null; onClose: () => void }) {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const [form] = Form.useForm<ActivityForm>();
  const metric = Form.useWatch('metric', form);
  const create = useCreateActivity({ done: onClose });
  const update = useUpdateActivity({ done: onClose });
  const busy = create.isPending || update.isPending;
  const submit = (v: ActivityForm) =>
    activity ? update.mutate(changesOf(activity, v)) : create.mutate({ ...fieldsOf(v), reason: v.reason?.trim() || undefined });
  const currencyOptions = (currencies.data ?? []).map((c) => ({ value: c.code, label: c.code }));

  return (
    <FormModal
      width={920}
      title={activity ? t('activities.edit', { id: activity.id }) : t('activities.new')}
      okText={t('common.save')}
      form={form}
      busy={busy}
      onClose={onClose}
    >
      <Form form={form} layout="vertical" initialValues={initialOf(activity)} onFinish={submit}>
        <BilingualFields titleMax={ACTIVITY_TITLE_MAX} text={ACTIVITY_RULES} />
        <Space wrap align="start">
          <Form.Item name="metric" label={t('activities.metric')}>
            <Select
              style={{ width: 220 }}
              options={[
                { value: 'swap_volume_usdt', label: t('activities.metrics.swap_volume_usdt') },
                { value: 'transfers_sent', label: t('activities.metrics.transfers_sent') },
              ]}
            />
          </Form.Item>
          {metric === 'transfers_sent' && (
            <>
              <Form.Item name="metricCurrency" label={t('activities.metricCurrency')} rules={[requiredRule(t)]}>
                <Select style={{ width: 120 }} options={currencyOptions} />
              </Form.Item>
              <Form.Item name="minTransfer" label={t('activities.minTransfer')} rules={[requiredRule(t), amountRule(t)]}>
                <Input inputMode="decimal" maxLength={AMOUNT_INPUT_MAX} />
              </Form.Item>
            </>
          )}
          <Form.Item name="period" label={t('activities.period')} rules={[{ required: true, message: t('validation.required') }]}>
            <DatePicker.RangePicker showTime />
          </Form.Item>
          <Form.Item
            name="minScore"
            label={t('activities.minScore')}
            rules={[requiredRule(t), { pattern: /^\d+(\.\d+)?$/, message: t('validation.amount') }]}
          >
            <Input inputMode="decimal" maxLength={AMOUNT_INPUT_MAX} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="prizeCurrency" label={t('activities.prizeCurrency')} rules={[requiredRule(t)]}>
            <Select style={{ width: 120 }} options={currencyOptions} />
          </Form.Item>
        </Space>
        <Form.List name="prizes">
          {(fields, { add, remove }) => (
            <Form.Item label={t('activities.prizes')}>
              {fields.map((field) => (
                <Space key={field.key} align="start">
                  <Form.Item name={[field.name, 'rankFrom']} rules={[{ required: true, message: t('validation.required') }]}>
                    <InputNumber
                      aria-label={t('activities.rankFrom')}
                      placeholder={t('activities.rankFrom')}
                      min={1}
                      max={ACTIVITY_MAX_PRIZE_RANK}
                      precision={0}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'rankTo']} rules={[{ required: true, message: t('validation.required') }]}>
                    <InputNumber
                      aria-label={t('activities.rankTo')}
                      placeholder={t('activities.rankTo')}
                      min={1}
                      max={ACTIVITY_MAX_PRIZE_RANK}
                      precision={0}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'amount']} rules={[requiredRule(t), amountRule(t)]}>
                    <Input
                      aria-label={t('activities.prize')}
                      placeholder={t('activities.prize')}
                      inputMode="decimal"
                      maxLength={AMOUNT_INPUT_MAX}
                    />
                  </Form.Item>
                  <Button onClick={() => remove(field.name)} disabled={fields.length === 1}>
                    {t('activities.removePrize')}
                  </Button>
                </Space>
              ))}
              <Button
                type="dashed"
                onClick={() => add({ rankFrom: undefined, rankTo: undefined, amount: '' })}
                disabled={fields.length >= 20}
              >
                {t('activities.addPrize')}
              </Button>
            </Form.Item>
          )}
        </Form.List>
        <Form.Item
          name="reason"
          label={t('common.reason')}
          rules={[{ max: REASON_MAX, message: t('validation.tooLong', { max: REASON_MAX }) }]}
        >
          <Input.TextArea rows={2} maxLength={REASON_MAX} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
