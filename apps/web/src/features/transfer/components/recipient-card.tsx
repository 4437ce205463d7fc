import type { Recipient } from '@coffer/contract/ledger';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';

/** Who the money goes to, as the server lets the sender see them (masked e-mail). */
export function RecipientCard({ recipient }: { recipient: Recipient }) {
  const { t } = useTranslation();
  return (
    <div className="wallet-recipient" data-testid="recipient-preview">
      <UserAvatar avatar={recipient.avatar} size={44} />
      <div className="min-w-0 flex-1">
        <div className="truncate font-semibold" data-testid="recipient-nickname">
          {recipient.nickname || recipient.maskedEmail}
        </div>
        <div className="wallet-muted truncate" data-testid="recipient-email">
          {recipient.maskedEmail}
        </div>
        <div className="wallet-muted">{t('transfer.uidLabel', { uid: recipient.uid })}</div>
      </div>
    </div>
  );
}
