import type { DepositStatus, WithdrawStatus } from '@coffer/contract/chain';
import './chain.css';
import { useTranslation } from 'react-i18next';

type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';

const DEPOSIT_COLORS: Record<DepositStatus, TagColor> = {
  unconfirmed: 'warning',
  pending: 'primary',
  credited: 'success',
  dropped: 'default',
  below_minimum: 'warning',
  reorged_after_credit: 'danger',
};

const WITHDRAW_COLORS: Record<WithdrawStatus, TagColor> = {
  review: 'warning',
  queued: 'primary',
  broadcast: 'primary',
  confirming: 'primary',
  completed: 'success',
  failed: 'danger',
  cancelled: 'default',
  rejected: 'danger',
};

/** "2/3": confirmations seen of those required, never shown above the requirement. */
export function confirmationsText(seen: number, required: number): string {
  return `${Math.min(seen, required)}/${required}`;
}

/** A deposit's or withdrawal's status as a coloured badge (AA contrast in both themes); data-status carries the raw value for tests. */
export function ChainStatusTag({
  kind,
  status,
  testId,
}: {
  kind: 'deposit' | 'withdraw';
  status: DepositStatus | WithdrawStatus;
  testId?: string;
}) {
  const { t } = useTranslation();
  const color = kind === 'deposit' ? DEPOSIT_COLORS[status as DepositStatus] : WITHDRAW_COLORS[status as WithdrawStatus];
  return (
    <span className={`chain-status chain-status--${color ?? 'default'}`} data-testid={testId} data-status={status}>
      {t(`chain.${kind}Status.${status}`, { defaultValue: status })}
    </span>
  );
}
