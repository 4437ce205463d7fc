import type { SignInKind } from '@coffer/contract/security';
import { List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/wallet/format';
import { useSignIns } from '../api/security';
import { deviceLabel } from './device-label';

const SIGN_INS_SHOWN = 20;

/** How each kind of sign-in attempt reads in the history. */
const SIGN_IN_KIND_TEXT: Record<SignInKind, string> = {
  success: 'security.signInOk',
  password_wrong: 'security.signInFailed',
  second_factor_wrong: 'security.signInSecondFactorWrong',
};

/** The last sign-in attempts, a wrong second factor flagged (whoever tried knows the password). */
export function SignInHistory() {
  const { t } = useTranslation();
  const signIns = useSignIns(SIGN_INS_SHOWN);
  return (
    <List header={t('security.signIns')} mode="card" className="m-0!" data-testid="security-signins">
      {signIns.data?.list.length === 0 && <List.Item>{t('common.empty')}</List.Item>}
      {signIns.data?.list.map((a) => (
        <List.Item
          key={a.id}
          data-testid="security-signin"
          data-kind={a.kind}
          description={
            <div className="flex flex-col">
              <span>{`${formatDateTime(a.createdAt)} · IP ${a.ip ?? '--'}`}</span>
              {a.kind === 'second_factor_wrong' && (
                <span className="text-[var(--adm-color-danger)]" data-testid="security-signin-warning">
                  {t('security.signInKnowsPassword')}
                </span>
              )}
            </div>
          }
          extra={
            <Tag color={a.success ? 'success' : 'danger'} fill="outline" data-testid="security-signin-kind">
              {t(SIGN_IN_KIND_TEXT[a.kind])}
            </Tag>
          }
        >
          {deviceLabel(t, a)}
        </List.Item>
      ))}
    </List>
  );
}
