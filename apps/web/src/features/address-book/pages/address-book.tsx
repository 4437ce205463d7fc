import type { AddressBookEntry } from '@coffer/contract/address-book';
import { addressBookAddBody } from '@coffer/contract/address-book';
import { ErrorCode } from '@coffer/contract/errors';
import { secondFactorCode } from '@coffer/contract/two-factor';
import { Button, Input, List, Selector, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@coffer/api-client/api-error';
import { useCurrentUser } from '../../../lib/current-user';
import { Dialog } from '../../../lib/dialog';
import { toastSuccess } from '../../../lib/notify';
import { shortHash } from '../../../lib/wallet/address';
import { addAddress, removeAddress, setWhitelistOnly, useAddressBook, useRefreshAddressBook } from '../../../lib/wallet/address-book';
import { useNetworks } from '../../../lib/wallet/networks';

/** Refusals of an add shown under the form instead of a pop-up. */
const ADD_FIELD_CODES = [
  ErrorCode.INVALID_ADDRESS,
  ErrorCode.UNSPENDABLE_ADDRESS,
  ErrorCode.ADDRESS_ALREADY_IN_BOOK,
  ErrorCode.WRONG_SECOND_FACTOR,
  ErrorCode.LIMIT_EXCEEDED,
];

/** "12 h 5 min" from seconds, at least a minute. */
function useWaitText() {
  const { t } = useTranslation();
  return (seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return t('addressBook.waitLeft', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  };
}

/**
 * /settings/address-book: saved withdrawal addresses with a label. A new one is usable after
 * the delay unless added with the second factor; "whitelist only" refuses any other destination.
 */
export default function AddressBookPage() {
  const { t } = useTranslation();
  const book = useAddressBook();
  const networks = useNetworks();
  const refresh = useRefreshAddressBook();
  const waitText = useWaitText();
  const twoFactor = Boolean(useCurrentUser().data?.twoFactor);
  const withdrawable = (networks.data ?? []).filter((n) => n.withdrawEnabled);
  const [networkId, setNetworkId] = useState<number | undefined>();
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const chosen = networkId ?? withdrawable[0]?.id;
  const codeArg = twoFactor && secondFactorCode.safeParse(code).success ? code : undefined;

  const add = async () => {
    const body = addressBookAddBody.safeParse({ networkId: chosen, address, label, ...(codeArg && { totp: codeArg }) });
    if (!body.success) {
      setError(t('addressBook.fillIn'));
      return;
    }
    setPending(true);
    try {
      await addAddress(body.data, ADD_FIELD_CODES);
      setAddress('');
      setLabel('');
      setCode('');
      setError(null);
      toastSuccess(t('addressBook.added'));
    } catch (e) {
      if (isApiError(e)) setError(e.message);
    } finally {
      setPending(false);
      await refresh();
    }
  };

  const remove = async (entry: AddressBookEntry) => {
    const confirmed = await Dialog.confirm({
      content: t('addressBook.removeConfirm', { label: entry.label }),
      confirmText: t('addressBook.remove'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    try {
      await removeAddress(entry.id);
      toastSuccess(t('addressBook.removed'));
    } catch {
      // Shown by the HTTP layer.
    }
    await refresh();
  };

  const toggleWhitelist = async (enabled: boolean) => {
    try {
      await setWhitelistOnly(enabled, enabled ? undefined : codeArg);
    } catch {
      // 2006 / 2007 are shown by the HTTP layer: the code field is on this page.
    }
    await refresh();
  };

  const entries = book.data?.list ?? [];
  return (
    <div className="flex flex-col gap-4" data-testid="address-book-page">
      <p className="wallet-muted m-0 px-1">{t('addressBook.intro', { hours: book.data?.delayHours ?? 24 })}</p>
      <List mode="card" className="m-0!">
        <List.Item
          description={t(twoFactor ? 'addressBook.whitelistHint2fa' : 'addressBook.whitelistHint')}
          extra={
            <Switch
              checked={book.data?.whitelistOnly ?? false}
              onChange={(on) => void toggleWhitelist(on)}
              aria-label={t('addressBook.whitelist')}
              data-testid="address-book-whitelist"
            />
          }
        >
          {t('addressBook.whitelist')}
        </List.Item>
      </List>
      <List header={t('addressBook.yours')} mode="card" className="m-0!" data-testid="address-book-list">
        {entries.length === 0 && book.isSuccess ? <List.Item data-testid="address-book-empty">{t('addressBook.none')}</List.Item> : null}
        {entries.map((entry) => (
          <List.Item
            key={entry.id}
            data-testid="address-book-item"
            description={
              <span>
                {entry.networkName} · <span title={entry.address}>{shortHash(entry.address, 8, 6)}</span>
                <br />
                <span data-testid="address-book-status">
                  {entry.usable ? t('addressBook.usable') : t('addressBook.waiting', { left: waitText(entry.secondsLeft) })}
                </span>
              </span>
            }
            extra={
              <Button size="mini" color="danger" fill="outline" onClick={() => void remove(entry)} data-testid="address-book-remove">
                {t('addressBook.remove')}
              </Button>
            }
          >
            {entry.label}
          </List.Item>
        ))}
      </List>
      <section className="wallet-card flex flex-col gap-3" data-testid="address-book-form">
        <div className="wallet-card-title m-0">{t('addressBook.add')}</div>
        <Selector
          columns={2}
          value={chosen ? [chosen] : []}
          onChange={(picked) => picked[0] !== undefined && setNetworkId(picked[0])}
          options={withdrawable.map((n) => ({ label: `${n.code} · ${n.name}`, value: n.id }))}
          data-testid="address-book-network"
        />
        <Input
          value={address}
          onChange={(v) => {
            setAddress(v.trim());
            setError(null);
          }}
          placeholder={t('addressBook.address')}
          aria-label={t('addressBook.address')}
          autoComplete="off"
          data-testid="address-book-address"
        />
        <Input
          value={label}
          onChange={(v) => {
            setLabel(v);
            setError(null);
          }}
          maxLength={40}
          placeholder={t('addressBook.label')}
          aria-label={t('addressBook.label')}
          data-testid="address-book-label"
        />
        {twoFactor ? (
          <Input
            value={code}
            onChange={(v) => setCode(v.trim().slice(0, 11))}
            autoComplete="one-time-code"
            maxLength={11}
            placeholder={t('twoFactor.codeOrRecovery')}
            aria-label={t('twoFactor.codeOrRecovery')}
            data-testid="address-book-code"
          />
        ) : null}
        <div className="wallet-muted">
          {twoFactor
            ? t('addressBook.codeHint', { hours: book.data?.delayHours ?? 24 })
            : t('addressBook.delayHint', { hours: book.data?.delayHours ?? 24 })}
        </div>
        {error === null ? null : (
          <div className="wallet-error" data-testid="address-book-error">
            {error}
          </div>
        )}
        <Button block color="primary" loading={pending} onClick={() => void add()} data-testid="address-book-add">
          {t('addressBook.add')}
        </Button>
      </section>
    </div>
  );
}
