import { Input, type InputRef, List, Popup } from 'antd-mobile';
import type { AddressBookEntry } from '@coffer/contract/address-book';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SendCodeButton } from '../../../components/send-code-button';
import { PasteIcon } from '../../../components/wallet/chain-icons';
import { readClipboardText } from '../../../lib/clipboard';
import { shortHash } from '../../../lib/wallet/address';
import { toastDanger } from '../../../lib/notify';
import { useInputAria } from '../../../lib/use-input-aria';
import { ScanAddressButton } from './scan-address';

interface FieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The message under the field, or null. */
  error: string | null;
  /** Focusing a text field closes the amount keypad. */
  onFocus: () => void;
}

function fieldClass(error: string | null, extra = '') {
  return `withdraw-input${extra}${error === null ? '' : ' withdraw-input--invalid'}`;
}

interface AddressFieldProps extends FieldProps {
  networkName: string;
  /** Warnings under the field that do not block (lookalike, own deposit address, book entry). */
  notes: readonly string[];
  /** The address-book entries of this network. */
  entries: readonly AddressBookEntry[];
}

/** The outside address, typed, pasted or picked from the address book, checked as it is typed. */
export function AddressField({ value, onChange, error, onFocus, networkName, notes, entries }: AddressFieldProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [picking, setPicking] = useState(false);
  const ref = useRef<InputRef>(null);
  useInputAria(ref, error !== null, error === null ? undefined : 'withdraw-address-error');

  const paste = async () => {
    const text = await readClipboardText();
    if (text?.trim()) onChange(text.trim());
    else toastDanger(t('withdraw.pasteFailed'));
  };

  return (
    <section className="wallet-card">
      <label htmlFor="withdraw-address" className="wallet-card-title block">
        {t('withdraw.address')}
      </label>
      <div className={fieldClass(error)}>
        <Input
          id="withdraw-address"
          name="withdraw-address"
          value={value}
          onChange={onChange}
          onFocus={onFocus}
          placeholder={t('withdraw.addressPlaceholder', { network: networkName })}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          clearable
          ref={ref}
          data-testid="withdraw-address"
        />
        <button
          type="button"
          className="wallet-icon-button"
          aria-label={t('withdraw.paste')}
          onClick={() => void paste()}
          data-testid="withdraw-paste"
        >
          <PasteIcon />
        </button>
        <ScanAddressButton onScan={onChange} />
      </div>
      {error === null ? null : (
        <div id="withdraw-address-error" className="wallet-error" data-testid="address-error">
          {error}
        </div>
      )}
      {notes.map((note) => (
        <div key={note} className="chain-warning mt-2" data-testid="address-note">
          {note}
        </div>
      ))}
      <div className="mt-2 flex justify-between">
        <button type="button" className="wallet-link" onClick={() => setPicking(true)} data-testid="withdraw-pick-book">
          {t('addressBook.pick')}
        </button>
        <button type="button" className="wallet-link" onClick={() => navigate('/settings/address-book')} data-testid="withdraw-manage-book">
          {t('addressBook.manage')}
        </button>
      </div>
      <Popup
        visible={picking}
        onMaskClick={() => setPicking(false)}
        onClose={() => setPicking(false)}
        bodyStyle={{ maxHeight: '70vh', overflowY: 'auto' }}
      >
        <List header={t('addressBook.pickTitle')} data-testid="withdraw-book-list">
          {entries.length === 0 ? <List.Item>{t('addressBook.pickNone')}</List.Item> : null}
          {entries.map((entry) => (
            <List.Item
              key={entry.id}
              description={`${shortHash(entry.address, 8, 6)}${entry.usable ? '' : ` · ${t('addressBook.notYet')}`}`}
              onClick={() => {
                onChange(entry.address);
                setPicking(false);
              }}
              data-testid="withdraw-book-entry"
            >
              {entry.label}
            </List.Item>
          ))}
        </List>
      </Popup>
    </section>
  );
}

/** The e-mail code, with the button that mails it. */
export function EmailCodeField({ value, onChange, error, onFocus, email }: FieldProps & { email: string | undefined }) {
  const { t } = useTranslation();
  const ref = useRef<InputRef>(null);
  useInputAria(ref, error !== null, error === null ? 'withdraw-code-hint' : 'withdraw-code-error withdraw-code-hint');
  return (
    <section className="wallet-card">
      <label htmlFor="withdraw-code" className="wallet-card-title block">
        {t('withdraw.code')}
      </label>
      <div className={fieldClass(error, ' withdraw-code')}>
        <Input
          id="withdraw-code"
          name="withdraw-code"
          value={value}
          onChange={onChange}
          onFocus={onFocus}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder={t('auth.codePlaceholder')}
          ref={ref}
          data-testid="withdraw-code"
        />
        <SendCodeButton type="withdraw" getEmail={async () => email ?? null} testId="withdraw-send-code" />
      </div>
      {error === null ? null : (
        <div id="withdraw-code-error" className="wallet-error" data-testid="code-error">
          {error}
        </div>
      )}
      <div id="withdraw-code-hint" className="wallet-muted mt-2">
        {email ? t('withdraw.codeHint', { email }) : null}
      </div>
    </section>
  );
}
