import { Alert, Descriptions, Form, Input, Modal, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { REASON_MAX, reasonRules } from '../lib/form-rules';

/** One line of the summary: what it is, and the figure or party as the operator must see it. */
export interface MoneyFigure {
  label: string;
  value: ReactNode;
  /** a test and screen-reader handle for the line (data-testid="money-<key>") */
  key: string;
}

interface Props {
  title: ReactNode;
  okText: string;
  /** The figures repeated before anything is sent: amount, fee, currency, who and where. */
  figures: MoneyFigure[];
  danger?: boolean;
  busy: boolean;
  /** A note above the figures (e.g. "the first of two approvals"). */
  note?: ReactNode;
  /**
   * Ask for the reason in this dialog (the action's audit-trail reason); without it the reason
   * was typed in a form before and is one of the figures.
   */
  askReason?: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/**
 * The confirm step of every console action that moves or releases money: the figures once more,
 * then OK. Nothing is sent before OK; Cancel changes nothing.
 */
export function MoneyConfirm({ title, okText, figures, danger, busy, note, askReason, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open
      width={640}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger, loading: busy }}
      onOk={() => (askReason ? form.submit() : onConfirm(''))}
      onCancel={onClose}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type={danger ? 'warning' : 'info'} showIcon title={t('money.summary')} />
        {note}
        <Descriptions size="small" column={1} bordered data-testid="money-confirm">
          {figures.map((f) => (
            <Descriptions.Item key={f.key} label={f.label}>
              <span data-testid={`money-${f.key}`}>{f.value}</span>
            </Descriptions.Item>
          ))}
        </Descriptions>
        {askReason && (
          // A name of its own: other forms on the page have a "reason" field too.
          <Form form={form} name="money-confirm" layout="vertical" onFinish={(v) => onConfirm(v.reason)}>
            <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
              <Input.TextArea rows={3} maxLength={REASON_MAX} autoFocus />
            </Form.Item>
          </Form>
        )}
      </Space>
    </Modal>
  );
}
