import type { Rounding } from '@coffer/contract/rules';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../../components/wallet/amount';
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
 * The currency icon, what the record is and its signed amount at the currency's display
 * precision; tapping the number shows (and lets the user copy) the exact value.
 */
export function Head({
  code,
  value,
  sign,
  rounding,
  title,
  testId,
}: {
  code: string;
  value: string;
  sign: '+' | '-' | '';
  rounding?: Rounding;
  title: string;
  testId: string;
}) {
  return (
    <div className="bill-detail-head">
      <CurrencyIcon code={code} size={44} />
      <div className="wallet-muted">{title}</div>
      <div className="flex items-center justify-center">
        <Amount
          value={value}
          code={code}
          sign={sign}
          rounding={rounding ?? (sign === '-' ? 'up' : 'down')}
          className={`bill-detail-amount ${signClass(sign === '-' ? '-' : '+')}`}
          testId={testId}
        />
      </div>
    </div>
  );
}

/**
 * The record's reference (its id, what support asks for) with a copy action. Internal
 * ids (ledger entry, quote) stay off the screen: they mean nothing to the user.
 */
export function ReferenceRow({ id }: { id: number }) {
  const { t } = useTranslation();
  return (
    <div className="wallet-row">
      <span>{t('bill.fields.id')}</span>
      <span className="flex items-center">
        <span data-testid="detail-id">{id}</span>
        <CopyButton value={String(id)} label={t('bill.copyReference')} />
      </span>
    </div>
  );
}

/** One sentence saying what happened, under the amount. */
export function Summary({ children }: { children: ReactNode }) {
  return (
    <p className="bill-detail-summary" data-testid="detail-summary">
      {children}
    </p>
  );
}
