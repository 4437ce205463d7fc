import { ANTI_PHISHING_MAX, antiPhishingBody } from '@coffer/contract/security';
import { Button, Input, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastSuccess } from '../../../lib/notify';
import { useAntiPhishing, useSetAntiPhishing } from '../api/security';

/** The anti-phishing phrase our e-mails carry: shown masked, set, changed or removed. */
export function AntiPhishingCard() {
  const { t } = useTranslation();
  const antiPhishing = useAntiPhishing();
  const [editing, setEditing] = useState(false);
  return (
    <List header={t('security.antiPhishing')} mode="card" className="m-0!" data-testid="security-anti-phishing">
      <List.Item
        description={t('security.antiPhishingHint')}
        extra={
          <span data-testid="security-phrase-masked">{antiPhishing.data?.set ? antiPhishing.data.masked : t('security.phraseNotSet')}</span>
        }
        onClick={() => setEditing(true)}
      >
        {t('security.phrase')}
      </List.Item>
      {editing && (
        <List.Item>
          <PhraseEditor phraseSet={antiPhishing.data?.set === true} close={() => setEditing(false)} />
        </List.Item>
      )}
    </List>
  );
}

/** The phrase's field, its check, and save, remove (when one is set) and cancel. */
function PhraseEditor({ phraseSet, close }: { phraseSet: boolean; close: () => void }) {
  const { t } = useTranslation();
  const savePhrase = useSetAntiPhishing();
  const [phrase, setPhrase] = useState('');
  const phraseError = phrase && !antiPhishingBody.safeParse({ phrase }).success ? t('security.phraseInvalid') : null;

  const submitPhrase = async (value: string) => {
    try {
      await savePhrase.mutateAsync(value);
      toastSuccess(t('security.phraseSaved'));
      close();
    } catch {
      // The HTTP layer showed the refusal.
    }
  };

  return (
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
        {phraseSet && (
          <Button size="small" fill="outline" onClick={() => submitPhrase('')} data-testid="security-phrase-remove">
            {t('security.phraseRemove')}
          </Button>
        )}
        <Button size="small" fill="none" onClick={close}>
          {t('common.cancel')}
        </Button>
      </div>
    </div>
  );
}
