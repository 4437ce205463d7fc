import type { ActivityAdmin } from '@coffer/contract/activity';
import { Modal, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Amount, amountColumn } from '../../../components/amount';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/format';
import { usePayouts } from '../api/payouts';

export function PayoutsModal({ activity, onClose }: { activity: ActivityAdmin; onClose: () => void }) {
  const { t } = useTranslation();
  const payouts = usePayouts(activity.id);
  return (
    <Modal open width={920} title={t('activities.payoutsTitle', { id: activity.id })} footer={null} onCancel={onClose} destroyOnHidden>
      <QueryState query={payouts} />
      {payouts.data && <Tag>{t(`activities.statuses.${payouts.data.status}`)}</Tag>}
      <Table
        size="small"
        rowKey="rank"
        pagination={false}
        dataSource={payouts.data?.items ?? []}
        columns={[
          { title: t('activities.rank'), dataIndex: 'rank' },
          { title: t('common.uid'), dataIndex: 'uid' },
          { title: t('common.email'), dataIndex: 'email' },
          { title: t('activities.score'), dataIndex: 'score', align: 'right' },
          {
            title: `${t('common.amount')} (${activity.prizeCurrency})`,
            dataIndex: 'amount',
            ...amountColumn,
            render: (v: string) => <Amount value={v} currency={activity.prizeCurrency} withCode={false} />,
          },
          { title: t('users.entry'), dataIndex: 'entryId', render: (v: number | null) => v ?? '—' },
          { title: t('activities.paidAt'), dataIndex: 'paidAt', render: formatTime },
        ]}
      />
    </Modal>
  );
}
