import { ANTI_PHISHING_MAX, antiPhishingBody, type SecuritySession, type SignInKind } from '@coffer/contract/security';
import { secondFactorCode } from '@coffer/contract/two-factor';
import { Button, Input, List, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../lib/dialog';
import { fieldErrorOf } from '../../../lib/form-errors';
import { toastSuccess } from '../../../lib/notify';
import { formatDateTime } from '../../../lib/wallet/format';
import { SecondFactorInput } from '../../../components/second-factor-input';
import {
  RESET_CANCEL_FIELD_ERRORS,
  useAntiPhishing,
  useCancelTwoFactorReset,
  useRevokeSession,
  useSessions,
  useSetAntiPhishing,
  useSignIns,
  useTwoFactorReset,
} from '../api/security';

const SIGN_INS_SHOWN = 20;

/** How each kind of sign-in attempt reads in the history. */
const SIGN_IN_KIND_TEXT: Record<SignInKind, string> = {
  success: 'security.signInOk',
  password_wrong: 'security.signInFailed',
  second_factor_wrong: 'security.signInSecondFactorWrong',
};

/** /settings/security: signed-in devices, sign-in history, anti-phishing phrase, links to 2FA, passkeys and the password change. */
export default function SecurityPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sessions = useSessions();
  const signIns = useSignIns(SIGN_INS_SHOWN);
  const antiPhishing = useAntiPhishing();
  const revoke = useRevokeSession();
  const savePhrase = useSetAntiPhishing();
  const [phrase, setPhrase] = useState('');
  const [editing, setEditing] = useState(false);
  const [resetCode, setResetCode] = useState('');
  /** A wrong code, written under the field like the two-factor page's (the HTTP layer pops up the rest). */
  const [resetCodeError, setResetCodeError] = useState<string | null>(null);
  const typeResetCode = (value: string) => {
    setResetCode(value);
    setResetCodeError(null);
  };
  const twoFactorReset = useTwoFactorReset();
  const cancelReset = useCancelTwoFactorReset();
  const pendingReset = twoFactorReset.data?.pending;

  const confirmCancelReset = async () => {
    setResetCodeError(null);
    try {
      await cancelReset.mutateAsync(resetCode.trim());
      setResetCode('');
      toastSuccess(t('twoFactor.resetCancelled'));
    } catch (error) {
      setResetCodeError(fieldErrorOf(error, RESET_CANCEL_FIELD_ERRORS)?.message ?? null);
    }
  };

  const list = sessions.data?.list ?? [];
  const others = list.filter((s) => !s.current);

  const confirmRevoke = async (target: SecuritySession | 'others') => {
    const confirmed = await Dialog.confirm({
      content: target === 'others' ? t('security.revokeOthersConfirm') : t('security.revokeConfirm', { device: deviceLabel(target) }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    try {
      await revoke.mutateAsync(target === 'others' ? 'others' : target.id);
      toastSuccess(t('security.revoked'));
    } catch {
      // The HTTP layer showed the refusal.
    }
  };

  const deviceLabel = (s: { device: string | null }) => s.device ?? t('security.unknownDevice');
  const phraseError = phrase && !antiPhishingBody.safeParse({ phrase }).success ? t('security.phraseInvalid') : null;

  const submitPhrase = async (value: string) => {
    try {
      await savePhrase.mutateAsync(value);
      toastSuccess(t('security.phraseSaved'));
      setEditing(false);
      setPhrase('');
    } catch {
      // The HTTP layer showed the refusal.
    }
  };

  return (
    <div className="flex flex-col gap-4" data-testid="security-page">
      {pendingReset ? (
        <section className="wallet-card flex flex-col gap-2" data-testid="security-2fa-reset">
          <div className="wallet-card-title">{t('security.twoFactorReset')}</div>
          <p className="wallet-muted m-0">{t('twoFactor.resetPending', { date: formatDateTime(pendingReset.completesAt) })}</p>
          <p className="wallet-muted m-0">{t('twoFactor.resetCancelHint')}</p>
          <SecondFactorInput value={resetCode} onChange={typeResetCode} testId="security-2fa-reset-code" error={resetCodeError} />
          <Button
            block
            color="danger"
            fill="outline"
            disabled={!secondFactorCode.safeParse(resetCode).success}
            loading={cancelReset.isPending}
            onClick={confirmCancelReset}
            data-testid="security-2fa-reset-cancel"
          >
            {t('twoFactor.resetCancel')}
          </Button>
        </section>
      ) : null}
      <List header={t('security.signInMethods')} mode="card" className="m-0!">
        <List.Item data-testid="security-2fa" onClick={() => navigate('/settings/2fa')}>
          {t('settings.twoFactor')}
        </List.Item>
        <List.Item data-testid="security-passkeys" onClick={() => navigate('/settings/passkeys')}>
          {t('security.passkeys')}
        </List.Item>
        <List.Item data-testid="security-change-password" onClick={() => navigate('/settings/password')}>
          {t('security.changePassword')}
        </List.Item>
      </List>

      <List header={t('security.sessions')} mode="card" className="m-0!" data-testid="security-sessions">
        {list.map((s) => (
          <List.Item
            key={s.id}
            data-testid="security-session"
            data-current={s.current ? 'true' : undefined}
            description={
              <div className="flex flex-col">
                <span>IP {s.ip ?? '--'}</span>
                <span>
                  {t('security.createdAt')} {formatDateTime(s.createdAt)}
                </span>
                <span>
                  {t('security.lastSeenAt')} {formatDateTime(s.lastSeenAt ?? s.createdAt)}
                </span>
              </div>
            }
            extra={
              s.current ? (
                <Tag color="primary" fill="outline" data-testid="security-session-current">
                  {t('security.thisDevice')}
                </Tag>
              ) : (
                <Button size="mini" color="danger" fill="outline" onClick={() => confirmRevoke(s)} data-testid="security-session-revoke">
                  {t('security.revoke')}
                </Button>
              )
            }
          >
            {deviceLabel(s)}
          </List.Item>
        ))}
        {sessions.isSuccess && others.length > 0 && (
          <List.Item>
            <Button
              block
              color="danger"
              fill="outline"
              loading={revoke.isPending}
              onClick={() => confirmRevoke('others')}
              data-testid="security-revoke-others"
            >
              {t('security.revokeOthers')}
            </Button>
          </List.Item>
        )}
      </List>

      <List header={t('security.antiPhishing')} mode="card" className="m-0!" data-testid="security-anti-phishing">
        <List.Item
          description={t('security.antiPhishingHint')}
          extra={
            <span data-testid="security-phrase-masked">
              {antiPhishing.data?.set ? antiPhishing.data.masked : t('security.phraseNotSet')}
            </span>
          }
          onClick={() => setEditing(true)}
        >
          {t('security.phrase')}
        </List.Item>
        {editing && (
          <List.Item>
            <div className="flex flex-col gap-2">
              <Input
                value={phrase}
                onChange={setPhrase}
                maxLength={ANTI_PHISHING_MAX}
                placeholder={t('security.phrasePlaceholder')}
                data-testid="security-phrase-input"
                aria-label={t('security.phrase')}
              />
              {phraseError && (
                <span className="wallet-muted" role="alert" data-testid="security-phrase-error">
                  {phraseError}
                </span>
              )}
              <div className="flex gap-2">
                <Button
                  color="primary"
                  size="small"
                  disabled={!phrase.trim() || !!phraseError}
                  loading={savePhrase.isPending}
                  onClick={() => submitPhrase(phrase)}
                  data-testid="security-phrase-save"
                >
                  {t('common.save')}
                </Button>
                {antiPhishing.data?.set && (
                  <Button size="small" fill="outline" onClick={() => submitPhrase('')} data-testid="security-phrase-remove">
                    {t('security.phraseRemove')}
                  </Button>
                )}
                <Button size="small" fill="none" onClick={() => setEditing(false)}>
                  {t('common.cancel')}
                </Button>
              </div>
            </div>
          </List.Item>
        )}
      </List>

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
            {deviceLabel(a)}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
