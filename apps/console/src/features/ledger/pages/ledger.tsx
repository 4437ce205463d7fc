import type { AdjustBody, AuditReport } from '@coffer/contract/ledger';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuditChecks } from '../../../components/audit-checks';
import { newIdempotencyKey } from '../../../lib/api';
import { errorText } from '../../../lib/errors';
import { formatTime } from '../../../lib/format';
import { AMOUNT_INPUT_MAX, amountRule, REASON_MAX, reasonRules, requiredRule } from '../../../lib/form-rules';
import { useCurrencies } from '../../currencies/api/currencies';
import { DASHBOARD_KEY } from '../../dashboard/api/dashboard';
import { adjust } from '../api/adjust';
import { ADJUSTMENTS_KEY, useAdjustments } from '../api/adjustments';
import { runAudit } from '../api/run-audit';

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

function AuditCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [report, setReport] = useState<AuditReport | null>(null);
  const run = useMutation({
    mutationFn: runAudit,
    onSuccess: (data) => {
      setReport(data.report);
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY });
    },
    onError: (error) => message.error(errorText(error, t('errors.unexpected'))),
  });
  return (
    <Card
      title={t('ledger.audit')}
      extra={
        <Button type="primary" loading={run.isPending} onClick={() => run.mutate()}>
          {t('audit.run')}
        </Button>
      }
    >
      {report && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space>
            <Tag color={report.ok ? 'green' : 'red'}>{report.ok ? t('audit.pass') : t('audit.fail')}</Tag>
            <Typography.Text type="secondary">
              {t('audit.checkedAt')}: {formatTime(report.checkedAt)}
            </Typography.Text>
          </Space>
          <AuditChecks report={report} />
        </Space>
      )}
    </Card>
  );
}

function AdjustCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const currencies = useCurrencies();
  const [form] = Form.useForm<AdjustForm>();
  // One key per intended adjustment: a resubmit after a lost answer replays, never doubles.
  const key = useRef(newIdempotencyKey());
  const save = useMutation({
    mutationFn: (body: AdjustBody) => adjust(body, key.current),
    onSuccess: (data) => {
      message.success(t(data.replayed ? 'ledger.replayed' : 'ledger.done', data));
      key.current = newIdempotencyKey();
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: ADJUSTMENTS_KEY });
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY });
    },
    onError: (error) => message.error(errorText(error, t('errors.unexpected'))),
  });
  return (
    <Card title={t('ledger.adjust')}>
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 520 }}
        initialValues={{ direction: 'credit' }}
        // Any edit after a refusal is another request: a new key.
        onValuesChange={() => {
          if (save.isError) key.current = newIdempotencyKey();
        }}
        onFinish={(v) => save.mutate(toBody(v))}
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
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('ledger.submit')}
        </Button>
      </Form>
    </Card>
  );
}

function AdjustmentsCard() {
  const { t } = useTranslation();
  const [uid, setUid] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const log = useAdjustments({ uid: uid ?? undefined, page, pageSize: 20 });
  return (
    <Card
      title={t('ledger.log')}
      extra={
        <InputNumber<number>
          aria-label={t('ledger.filterUid')}
          placeholder={t('ledger.filterUid')}
          min={1}
          precision={0}
          value={uid}
          onChange={(value) => {
            setUid(value);
            setPage(1);
          }}
          style={{ width: 160 }}
        />
      }
    >
      <Table
        size="small"
        rowKey="id"
        loading={log.isFetching}
        dataSource={log.data?.list ?? []}
        pagination={{ current: page, pageSize: 20, total: log.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('common.uid'), dataIndex: 'uid' },
          { title: t('common.email'), dataIndex: 'email' },
          { title: t('common.currency'), dataIndex: 'code' },
          { title: t('common.amount'), dataIndex: 'amount' },
          { title: t('common.reason'), dataIndex: 'reason' },
          { title: t('common.actor'), dataIndex: 'actor' },
          { title: t('common.time'), dataIndex: 'createdAt', render: formatTime },
        ]}
      />
    </Card>
  );
}

export default function LedgerPage() {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.ledger')}</Typography.Title>
      <AuditCard />
      <AdjustCard />
      <AdjustmentsCard />
    </Space>
  );
}
