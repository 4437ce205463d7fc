import { Button, Card, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Amount, amountColumn } from '../../../components/amount';
import { QueryState } from '../../../components/query-state';
import { ReasonModal } from '../../../components/reason-modal';
import { formatTime } from '../../../lib/format';
import { useLabel } from '../../../lib/labels';
import { useSetUserStatus } from '../api/set-user-status';
import { type SupportAction, useSupportAction } from '../api/support-action';
import { useTwoFactorReset } from '../api/two-factor-reset';
import { useUserDetail } from '../api/user-detail';
import { LinksCard } from '../components/links-card';
import { SecurityEventsCard } from '../components/security-events-card';

export default function UserDetailPage() {
  const { t } = useTranslation();
  const label = useLabel();
  const uid = Number(useParams().uid);
  const detail = useUserDetail(uid);
  const [asking, setAsking] = useState<'disable' | 'enable' | null>(null);
  const status = useSetUserStatus(uid, {
    success: (_, { action }) => (action === 'disable' ? t('users.disabledDone') : t('users.enabledDone')),
    done: () => setAsking(null),
  });
  const [resetAsking, setResetAsking] = useState<'open' | 'cancel' | null>(null);
  const reset = useTwoFactorReset(uid, {
    success: (_, { action }) => (action === 'open' ? t('users.resetOpened') : t('users.resetCancelled')),
    done: () => setResetAsking(null),
  });
  const [supportAsking, setSupportAsking] = useState<SupportAction | null>(null);
  const support = useSupportAction(uid, {
    success: (_, { action }) => (action === 'sign-out' ? t('users.signedOut') : t('users.holdsEnded')),
    done: () => setSupportAsking(null),
  });
  const user = detail.data;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Link to="/users">{t('users.back')}</Link>
      <QueryState query={detail} />
      {user && (
        <>
          <Card
            title={
              <Typography.Title level={3} style={{ margin: 0 }}>
                {user.email}
              </Typography.Title>
            }
            extra={
              <Space>
                {user.activeSessions > 0 && user.role === 'user' && (
                  <Button onClick={() => setSupportAsking('sign-out')} data-testid="user-sign-out">
                    {t('users.signOut')}
                  </Button>
                )}
                {user.disabled ? (
                  <Button onClick={() => setAsking('enable')}>{t('users.enable')}</Button>
                ) : (
                  <Button danger onClick={() => setAsking('disable')}>
                    {t('users.disable')}
                  </Button>
                )}
              </Space>
            }
          >
            <Descriptions size="small" column={3} bordered>
              <Descriptions.Item label={t('common.uid')}>{user.uid}</Descriptions.Item>
              <Descriptions.Item label={t('users.nickname')}>{user.nickname}</Descriptions.Item>
              <Descriptions.Item label={t('users.role')}>{label('role', user.role)}</Descriptions.Item>
              <Descriptions.Item label={t('common.status')}>
                <Tag color={user.disabled ? 'red' : 'green'}>{label('userStatus', user.disabled ? 'disabled' : 'active')}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('users.twoFactor')}>{user.twoFactor ? t('common.yes') : t('common.no')}</Descriptions.Item>
              <Descriptions.Item label={t('users.sessions')}>{user.activeSessions}</Descriptions.Item>
              <Descriptions.Item label={t('users.language')}>{user.language ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('common.createdAt')}>{formatTime(user.createdAt)}</Descriptions.Item>
              {user.disabled && (
                <>
                  <Descriptions.Item label={t('users.disabledAt')}>{formatTime(user.disabledAt)}</Descriptions.Item>
                  <Descriptions.Item label={t('users.disabledReason')}>{user.disabledReason ?? '—'}</Descriptions.Item>
                </>
              )}
            </Descriptions>
          </Card>
          {user.twoFactor && user.role === 'user' && (
            <Card
              title={t('users.resetTitle')}
              data-testid="user-2fa-reset"
              extra={
                user.twoFactorReset ? (
                  <Button onClick={() => setResetAsking('cancel')} data-testid="user-2fa-reset-cancel">
                    {t('users.resetCancel')}
                  </Button>
                ) : (
                  <Button danger onClick={() => setResetAsking('open')} data-testid="user-2fa-reset-open">
                    {t('users.resetOpen')}
                  </Button>
                )
              }
            >
              {user.twoFactorReset ? (
                <Descriptions size="small" column={2} bordered>
                  <Descriptions.Item label={t('users.resetCompletesAt')}>
                    <span data-testid="user-2fa-reset-completes">{formatTime(user.twoFactorReset.completesAt)}</span>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('users.resetOpenedAt')}>{formatTime(user.twoFactorReset.createdAt)}</Descriptions.Item>
                  <Descriptions.Item label={t('users.resetOperator')}>{user.twoFactorReset.operator}</Descriptions.Item>
                  <Descriptions.Item label={t('common.reason')}>{user.twoFactorReset.reason}</Descriptions.Item>
                </Descriptions>
              ) : (
                <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                  {t('users.resetHint')}
                </Typography.Paragraph>
              )}
            </Card>
          )}
          <SecurityEventsCard events={user.securityEvents} onEndHolds={() => setSupportAsking('holds/end')} />
          <LinksCard user={user} />
          <Card title={t('users.balances')}>
            <Table
              size="small"
              rowKey="currencyId"
              pagination={false}
              dataSource={user.balances}
              columns={[
                { title: t('common.currency'), dataIndex: 'code' },
                ...(['available', 'frozen'] as const).map((key) => ({
                  title: t(`users.${key}`),
                  dataIndex: key,
                  ...amountColumn,
                  render: (v: string, b: { code: string }) => <Amount value={v} currency={b.code} withCode={false} />,
                })),
              ]}
            />
          </Card>
          <Card title={t('users.postings')}>
            <Table
              size="small"
              rowKey={(p) => `${p.entryId}-${p.currencyId}-${p.account}`}
              pagination={false}
              dataSource={user.postings}
              columns={[
                { title: t('users.entry'), dataIndex: 'entryId' },
                {
                  title: t('users.kind'),
                  dataIndex: 'kind',
                  render: (kind: string) => <span data-code={kind}>{label('entryKind', kind)}</span>,
                },
                { title: t('common.currency'), dataIndex: 'code' },
                { title: t('users.account'), dataIndex: 'account', render: (a: string) => label('account', a) },
                ...(['amount', 'balanceAfter'] as const).map((key) => ({
                  title: t(key === 'amount' ? 'common.amount' : 'users.balanceAfter'),
                  dataIndex: key,
                  ...amountColumn,
                  render: (v: string, p: { code: string }) => <Amount value={v} currency={p.code} withCode={false} />,
                })),
                { title: t('common.time'), dataIndex: 'createdAt', render: formatTime },
              ]}
            />
          </Card>
          {supportAsking && (
            <ReasonModal
              title={t(supportAsking === 'sign-out' ? 'users.signOutTitle' : 'users.endHoldsTitle', { email: user.email })}
              okText={t(supportAsking === 'sign-out' ? 'users.signOut' : 'users.endHolds')}
              danger={supportAsking === 'sign-out'}
              busy={support.isPending}
              onSubmit={(reason) => support.mutate({ action: supportAsking, reason })}
              onClose={() => setSupportAsking(null)}
            />
          )}
          {resetAsking && (
            <ReasonModal
              title={t(resetAsking === 'open' ? 'users.resetOpenTitle' : 'users.resetCancelTitle', { email: user.email })}
              okText={t(resetAsking === 'open' ? 'users.resetOpen' : 'users.resetCancel')}
              danger={resetAsking === 'open'}
              busy={reset.isPending}
              onSubmit={(reason) => reset.mutate({ action: resetAsking, reason })}
              onClose={() => setResetAsking(null)}
            />
          )}
          {asking && (
            <ReasonModal
              title={t(asking === 'disable' ? 'users.disableTitle' : 'users.enableTitle', { email: user.email })}
              okText={t(asking === 'disable' ? 'users.disable' : 'users.enable')}
              danger={asking === 'disable'}
              busy={status.isPending}
              onSubmit={(reason) => status.mutate({ action: asking, reason })}
              onClose={() => setAsking(null)}
            />
          )}
        </>
      )}
    </Space>
  );
}
