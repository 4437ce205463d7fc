import type { PasskeyItem } from '@coffer/contract/passkeys';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { secondFactorCode } from '@coffer/contract/two-factor';
import { Button, Input, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@coffer/api-client/api-error';
import { useCurrentUser } from '../../../lib/current-user';
import { Dialog } from '../../../lib/dialog';
import { toastDanger, toastSuccess } from '../../../lib/notify';
import { addPasskey, getReauth, listPasskeys, reauthWithPassword, removePasskey } from '../api/passkeys';
import { queryKeys } from '../../../lib/query-keys';

/** /settings/passkeys: passkeys of this account (sign-in without a password, or instead of a code). */
export default function PasskeysPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const passkeys = useQuery({ queryKey: queryKeys.passkeys, queryFn: listPasskeys });
  const [adding, setAdding] = useState(false);
  // With two-factor on, adding or removing a passkey needs a code (each code works once).
  const needsCode = Boolean(useCurrentUser().data?.twoFactor);
  const [code, setCode] = useState('');
  const codeReady = !needsCode || secondFactorCode.safeParse(code).success;
  const codeArg = needsCode ? code : undefined;
  // Without two-factor, adding asks for the password first unless this session confirmed it lately.
  const reauth = useQuery({ queryKey: queryKeys.reauth, queryFn: getReauth, staleTime: 0 });
  const recent = reauth.data?.validUntil ? new Date(reauth.data.validUntil).getTime() > Date.now() : false;
  const needsPassword = !needsCode && reauth.isSuccess && !recent;
  const [password, setPassword] = useState('');
  const addReady = needsCode ? codeReady : !needsPassword || password.length > 0;

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.passkeys });

  const add = async () => {
    setAdding(true);
    try {
      if (needsPassword) {
        queryClient.setQueryData(queryKeys.reauth, await reauthWithPassword(password));
        setPassword('');
      }
      await addPasskey(codeArg);
      setCode('');
      toastSuccess(t('passkeys.added'));
      await refresh();
    } catch (error) {
      // API refusals were shown by the HTTP layer; the browser's own (cancelled, no authenticator) here.
      if (!isApiError(error)) toastDanger(t('passkeys.failed'));
    } finally {
      await queryClient.invalidateQueries({ queryKey: queryKeys.reauth });
      setAdding(false);
    }
  };

  const remove = async (passkey: PasskeyItem) => {
    const confirmed = await Dialog.confirm({
      content: t('passkeys.removeConfirm', { name: passkey.name }),
      confirmText: t('passkeys.remove'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    try {
      await removePasskey(passkey.id, codeArg);
      setCode('');
      toastSuccess(t('passkeys.removed'));
    } catch {
      // Shown by the HTTP layer.
    }
    await refresh();
  };

  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const items = passkeys.data ?? [];

  return (
    <div className="flex flex-col gap-4">
      <p className="wallet-muted m-0 px-1">{t('passkeys.intro')}</p>
      <List header={t('passkeys.yours')} mode="card" className="m-0!" data-testid="passkey-list">
        {items.length === 0 && passkeys.isSuccess ? <List.Item data-testid="passkeys-empty">{t('passkeys.none')}</List.Item> : null}
        {items.map((p) => (
          <List.Item
            key={p.id}
            data-testid="passkey-item"
            description={`${t('passkeys.created', { date: date(p.createdAt) })}${p.lastUsedAt ? ` · ${t('passkeys.lastUsed', { date: date(p.lastUsedAt) })}` : ''}`}
            extra={
              <Button
                size="mini"
                color="danger"
                fill="outline"
                disabled={!codeReady}
                onClick={() => remove(p)}
                data-testid="passkey-remove"
              >
                {t('passkeys.remove')}
              </Button>
            }
          >
            {p.name}
          </List.Item>
        ))}
      </List>
      {needsCode ? (
        <section className="wallet-card">
          <div className="wallet-muted mb-2">{t('passkeys.codeHint')}</div>
          <Input
            value={code}
            onChange={(value) => setCode(value.trim())}
            autoComplete="one-time-code"
            maxLength={11}
            placeholder={t('twoFactor.codeOrRecovery')}
            aria-label={t('twoFactor.codeOrRecovery')}
            data-testid="passkey-code"
          />
        </section>
      ) : null}
      {needsPassword ? (
        <section className="wallet-card">
          <div className="wallet-muted mb-2">{t('passkeys.passwordHint')}</div>
          <Input
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            placeholder={t('passkeys.passwordPlaceholder')}
            aria-label={t('passkeys.passwordPlaceholder')}
            data-testid="passkey-password"
          />
        </section>
      ) : null}
      <Button block color="primary" size="large" loading={adding} disabled={!addReady} onClick={add} data-testid="passkey-add">
        {t('passkeys.add')}
      </Button>
    </div>
  );
}
