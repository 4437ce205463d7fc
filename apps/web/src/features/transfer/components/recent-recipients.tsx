import type { Recipient } from '@coffer/contract/ledger';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';
import { useRecentRecipients } from '../api/recent-recipients';

/** One tap on someone the user sent to before fills the recipient in (no typing, no lookup). */
export function RecentRecipients({ onPick }: { onPick: (recipient: Recipient) => void }) {
  const { t } = useTranslation();
  const recent = useRecentRecipients();
  if (!recent.data?.length) return null;
  return (
    <div className="mt-3">
      <div className="wallet-muted text-xs" id="recent-recipients-label">
        {t('transfer.recent')}
      </div>
      <ul className="transfer-recent" aria-labelledby="recent-recipients-label" data-testid="recent-recipients">
        {recent.data.map((person) => (
          <li key={person.uid}>
            <button
              type="button"
              className="transfer-recent-item"
              onClick={() => onPick(person)}
              aria-label={t('transfer.recentPick', { name: person.nickname || person.maskedEmail, uid: person.uid })}
              data-testid={`recent-recipient-${person.uid}`}
            >
              <UserAvatar avatar={person.avatar} size={28} />
              <span className="truncate">{person.nickname || person.maskedEmail}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
