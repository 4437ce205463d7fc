import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { REASON_MAX, reasonRules } from '../lib/form-rules';
import { FormModal } from './form-modal';

interface Props {
  title: string;
  okText: string;
  danger?: boolean;
  busy: boolean;
  /** The reason field's label (default: "Reason"). */
  label?: string;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}

/** A confirm dialog that asks why: every operator write records its reason. */
export function ReasonModal({ title, okText, danger, busy, label, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <FormModal title={title} okText={okText} danger={danger} form={form} busy={busy} onClose={onClose}>
      <Form form={form} layout="vertical" onFinish={(v) => onSubmit(v.reason)}>
        <Form.Item name="reason" label={label ?? t('common.reason')} rules={reasonRules(t)}>
          <Input.TextArea rows={3} maxLength={REASON_MAX} autoFocus />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
