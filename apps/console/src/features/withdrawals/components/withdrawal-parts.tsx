import { Descriptions, Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Amount } from '../../../components/amount';
import type { MoneyFigure } from '../../../components/money-confirm';
import { formatTime } from '../../../lib/format';
import type { OpenWithdrawal } from '../api/open-withdrawals';

/** The destination in full, copyable, with the network's explorer page of it when there is one. */
export function Destination({ w }: { w: Pick<OpenWithdrawal, 'address' | 'explorerUrl'> }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      <Typography.Text code copyable={{ text: w.address }} data-testid="destination">
        {w.address}
      </Typography.Text>
      {w.explorerUrl && (
        <Typography.Link href={w.explorerUrl} target="_blank" rel="noopener noreferrer">
          {t('withdrawals.explorer')}
        </Typography.Link>
      )}
    </Space>
  );
}

/** The user: e-mail linking to their console page, and the UID. */
export function WithdrawalUser({ w }: { w: Pick<OpenWithdrawal, 'userId' | 'email'> }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={0}>
      <Link to={`/users/${w.userId}`} aria-label={t('withdrawals.openUser', { email: w.email })}>
        {w.email}
      </Link>
      <Typography.Text type="secondary">{`${t('common.uid')} ${w.userId}`}</Typography.Text>
    </Space>
  );
}

/** The figures a decision on a withdrawal repeats before it commits. */
export function withdrawalFigures(t: TFunction, w: OpenWithdrawal): MoneyFigure[] {
  return [
    { key: 'withdrawal', label: t('money.withdrawal'), value: `#${w.id}` },
    { key: 'user', label: t('money.user'), value: `${w.email} (${t('common.uid')} ${w.userId})` },
    { key: 'amount', label: t('money.amount'), value: <Amount value={w.amount} currency={w.code} /> },
    { key: 'fee', label: t('money.fee'), value: <Amount value={w.fee} currency={w.code} /> },
    { key: 'currency', label: t('money.currency'), value: w.code },
    { key: 'network', label: t('money.network'), value: w.networkName },
    { key: 'destination', label: t('money.destination'), value: <Destination w={w} /> },
  ];
}

/** Where a four-eyes approval stands, in the status column. */
export function ApprovalState({ w }: { w: OpenWithdrawal }) {
  const { t } = useTranslation();
  if (w.status !== 'review' || !w.needsSecondOperator) return null;
  return w.firstApproval ? (
    <Tag color="purple" data-testid="waiting-second">
      {t('withdrawals.waitingSecond', { by: w.firstApproval.by })}
    </Tag>
  ) : (
    <Tag color="gold">{t('withdrawals.needsTwo')}</Tag>
  );
}

/** The facts an operator decides a withdrawal in review on (the expanded row). */
export function ReviewFacts({ w }: { w: OpenWithdrawal }) {
  const { t } = useTranslation();
  const f = w.facts;
  if (!f) return null;
  const sums = (rows: typeof f.deposits30d) =>
    rows.length === 0 ? (
      t('withdrawals.none')
    ) : (
      <Space orientation="vertical" size={0}>
        {rows.map((r) => (
          <span key={r.code}>
            {t('withdrawals.count', { count: r.count })} · <Amount value={r.sum} currency={r.code} />
          </span>
        ))}
      </Space>
    );
  return (
    <Descriptions size="small" column={2} bordered title={t('withdrawals.factsTitle')} data-testid={`facts-${w.id}`}>
      <Descriptions.Item label={t('withdrawals.accountCreated')}>{formatTime(f.accountCreatedAt)}</Descriptions.Item>
      <Descriptions.Item label={t('withdrawals.firstToAddress')}>
        {f.firstToAddress ? (
          <Tag color="orange">{t('withdrawals.firstYes')}</Tag>
        ) : (
          t('withdrawals.firstNo', { count: f.completedToAddress })
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t('withdrawals.addressBook')}>
        {f.addressBookSince ? t('withdrawals.inBookSince', { since: formatTime(f.addressBookSince) }) : t('withdrawals.notInBook')}
      </Descriptions.Item>
      <Descriptions.Item label={t('withdrawals.twoFactor')}>
        <Space size={4} wrap>
          <Tag color={f.totpEnabled ? 'green' : 'default'}>{t(f.totpEnabled ? 'withdrawals.totpOn' : 'withdrawals.totpOff')}</Tag>
          <Tag color={f.passkeys > 0 ? 'green' : 'default'}>{t('withdrawals.passkeys', { count: f.passkeys })}</Tag>
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('withdrawals.holds')} span={2}>
        {f.holds.length === 0 ? (
          t('withdrawals.none')
        ) : (
          <Space orientation="vertical" size={0}>
            {f.holds.map((h) => (
              <span key={`${h.at}-${h.reason}`}>
                {formatTime(h.at)} · {t(`users.eventCode.${h.reason}`, { defaultValue: h.reason })} ·{' '}
                {h.active ? (
                  <Tag color="red">{t('withdrawals.holdInForce', { until: formatTime(h.endsAt) })}</Tag>
                ) : (
                  t('withdrawals.holdEnded', { until: formatTime(h.endsAt) })
                )}
              </span>
            ))}
          </Space>
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t('withdrawals.deposits30d')}>{sums(f.deposits30d)}</Descriptions.Item>
      <Descriptions.Item label={t('withdrawals.withdrawals30d')}>{sums(f.withdrawals30d)}</Descriptions.Item>
    </Descriptions>
  );
}
