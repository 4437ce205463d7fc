import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/wallet/copy-button';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { signClass } from '../utils/labels';

/** A label and value line of a record detail. */
export function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="wallet-row">
      <span>{label}</span>
      <span data-testid={testId}>{children}</span>
    </div>
  );
}

/**
 * The currency icon, what the record is and its signed amount: the exact value (every
 * decimal the ledger holds, where lists show the display precision), with a copy action.
 */
export function Head({ code, amount, title, testId }: { code: string; amount: string; title: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="bill-detail-head">
      <CurrencyIcon code={code} size={44} />
      <div className="wallet-muted">{title}</div>
      <div className="flex items-center justify-center">
        <div className={`bill-detail-amount ${signClass(amount)}`} data-testid={testId}>
          {amount} {code}
        </div>
        <CopyButton value={amount.replace(/^[+-]/, '').replaceAll(',', '')} label={t('bill.copyAmount')} />
      </div>
    </div>
  );
}
