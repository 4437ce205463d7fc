import { isSafeLine, NICKNAME_MAX } from '@coffer/contract/rules';
import { Dialog, Input } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastDanger, toastSuccess } from '../../../lib/notify';
import { useUpdateUserInfo } from '../api/update-user-info';

interface Props {
  visible: boolean;
  current: string;
  onClose: () => void;
}

export function NicknameDialog({ visible, current, onClose }: Props) {
  const { t } = useTranslation();
  const update = useUpdateUserInfo();
  const [value, setValue] = useState(current);

  useEffect(() => {
    if (visible) setValue(current);
  }, [visible, current]);

  const save = async () => {
    // The rule the server's schema (contract auth.ts) checks, without the schemas' code on this tab.
    if (!isSafeLine(value, { min: 1, max: NICKNAME_MAX })) {
      toastDanger(t('validation.nickname', { max: NICKNAME_MAX }));
      return;
    }
    try {
      await update.mutateAsync({ nickname: value.trim() });
    } catch {
      return;
    }
    toastSuccess(t('profile.updated'));
    onClose();
  };

  return (
    <Dialog
      visible={visible}
      title={t('profile.editNickname')}
      closeOnMaskClick
      onClose={onClose}
      content={
        <Input
          name="nickname"
          value={value}
          onChange={setValue}
          maxLength={NICKNAME_MAX}
          placeholder={t('auth.nickname')}
          clearable
          autoFocus
        />
      }
      actions={[
        [
          { key: 'cancel', text: t('common.cancel'), onClick: onClose },
          { key: 'save', text: t('common.save'), bold: true, disabled: update.isPending, onClick: save },
        ],
      ]}
    />
  );
}
