import { Button, Input, type InputRef } from 'antd-mobile';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SegmentedTabs } from '../../../components/wallet/segmented-tabs';
import { useInputAria } from '../../../lib/use-input-aria';
import type { RecipientLookup } from '../hooks/use-recipient-lookup';
import type { RecipientMode } from '../utils/recipient-target';
import { RecentRecipients } from './recent-recipients';
import { RecipientCard } from './recipient-card';

/** The recipient card: by e-mail or UID, the typed text, its check and who it is (or why not). */
export function RecipientField({ lookup, showErrors }: { lookup: RecipientLookup; showErrors: boolean }) {
  const { t } = useTranslation();
  const inputRef = useRef<InputRef>(null);
  const { mode, recipient, error } = lookup;
  const message = error ?? (showErrors && !recipient ? t('transfer.checkFirst') : null);
  useInputAria(inputRef, message !== null, message === null ? undefined : 'recipient-error');

  return (
    <section className="wallet-card">
      <SegmentedTabs<RecipientMode>
        look="line"
        label={t('transfer.method')}
        tabs={[
          { key: 'email', title: t('transfer.byEmail') },
          { key: 'uid', title: t('transfer.byUid') },
        ]}
        active={mode}
        onChange={lookup.setMode}
      />
      <div className="mt-3 flex items-center gap-2">
        <Input
          ref={inputRef}
          className="transfer-recipient-input"
          value={lookup.text}
          onChange={(value) => lookup.change(value)}
          onEnterPress={lookup.lookUpNow}
          type={mode === 'email' ? 'email' : 'text'}
          inputMode={mode === 'email' ? 'email' : 'numeric'}
          name={mode === 'email' ? 'recipient-email' : 'recipient-uid'}
          aria-label={t('transfer.recipient')}
          placeholder={t(mode === 'email' ? 'transfer.emailPlaceholder' : 'transfer.uidPlaceholder')}
          clearable
        />
        <Button
          className="transfer-check"
          color="primary"
          fill="outline"
          loading={lookup.lookingUp}
          onClick={lookup.lookUpNow}
          data-testid="recipient-check"
        >
          {t('transfer.check')}
        </Button>
      </div>
      {message === null ? null : (
        <div id="recipient-error" className="wallet-error" data-testid={error === null ? undefined : 'recipient-error'}>
          {message}
        </div>
      )}
      {recipient ? (
        <div className="mt-3">
          <RecipientCard recipient={recipient} />
        </div>
      ) : (
        <RecentRecipients onPick={lookup.pick} />
      )}
    </section>
  );
}
