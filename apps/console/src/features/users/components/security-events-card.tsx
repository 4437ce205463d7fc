import type { AdminSecurityEvent } from '@coffer/contract/admin';
import { Button, Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/format';

/** A user's latest sign-ins, refused sign-ins and credential-change holds, with "end the hold" when one is in force. */
export function SecurityEventsCard({ events, onEndHolds }: { events: AdminSecurityEvent[]; onEndHolds: () => void }) {
  const { t } = useTranslation();
  const holding = events.some((e) => e.active);
  return (
    <Card
      title={t('users.securityEvents')}
      data-testid="user-security-events"
      extra={
        holding && (
          <Button onClick={onEndHolds} data-testid="user-end-holds">
            {t('users.endHolds')}
          </Button>
        )
      }
    >
      <Table
        size="small"
        rowKey={(e) => `${e.type}-${e.at}-${e.code}`}
        pagination={false}
        dataSource={events}
        columns={[
          { title: t('common.time'), dataIndex: 'at', render: formatTime },
          {
            title: t('users.event'),
            render: (_, e: AdminSecurityEvent) => (
              <>
                {t(`users.eventType.${e.type}`)}: {t(`users.eventCode.${e.code}`, { defaultValue: e.code })}
              </>
            ),
          },
          { title: t('users.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
          {
            title: t('users.holdUntil'),
            render: (_, e: AdminSecurityEvent) =>
              e.type !== 'hold' ? (
                '—'
              ) : (
                <>
                  {formatTime(e.endsAt)} {e.active && <Tag color="orange">{t('users.holdActive')}</Tag>}
                </>
              ),
          },
        ]}
      />
    </Card>
  );
}
