import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  title: ReactNode;
  okText: string;
  /** The form OK submits: its rules run first, its onFinish does the write. */
  form: { submit: () => void };
  /** The write is under way: OK spins and cannot be pressed twice. */
  busy: boolean;
  onClose: () => void;
  width?: number;
  danger?: boolean;
  children: ReactNode;
}

/** A dialog around one operator form: OK submits it, Cancel closes, nothing typed is kept once closed. */
export function FormModal({ title, okText, form, busy, onClose, width, danger, children }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      width={width}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={danger ? { danger } : undefined}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}
