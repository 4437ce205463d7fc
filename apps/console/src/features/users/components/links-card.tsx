import type { AccountLink, AdminUserDetail } from '@coffer/contract/admin';
import { Button, Card, Form, Input, InputNumber, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormModal } from '../../../components/form-modal';
import { ReasonModal } from '../../../components/reason-modal';
import { formatTime } from '../../../lib/format';
import { REASON_MAX, reasonRules } from '../../../lib/form-rules';
import { useLinkAccount } from '../api/link-account';
import { useUnlinkAccount } from '../api/unlink-account';

interface LinkForm {
  uid: number;
  reason: string;
}

/**
 * The accounts an operator linked to this user (the same person, one household): transfers
 * between them do not count in activity rankings. Link another account by UID, or remove a
 * link; each with a reason, audited.
 */
export function LinksCard({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<AccountLink | null>(null);
  const [form] = Form.useForm<LinkForm>();
  const add = useLinkAccount(user.uid, { success: () => t('users.linked'), done: () => setAdding(false) });
  const remove = useUnlinkAccount(user.uid, { success: () => t('users.unlinked'), done: () => setRemoving(null) });

  return (
    <Card
      title={t('users.links')}
      data-testid="user-links"
      extra={
        user.role === 'user' && (
          <Button onClick={() => setAdding(true)} data-testid="user-link-add">
            {t('users.linkAdd')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('users.linksHint')}</Typography.Paragraph>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        locale={{ emptyText: t('users.noLinks') }}
        dataSource={user.links}
        columns={[
          { title: t('common.uid'), dataIndex: 'uid', render: (uid: number) => <Link to={`/users/${uid}`}>{uid}</Link> },
          { title: t('common.email'), dataIndex: 'email' },
          { title: t('common.reason'), dataIndex: 'reason' },
          { title: t('users.linkedBy'), dataIndex: 'createdBy' },
          { title: t('users.linkedAt'), dataIndex: 'createdAt', render: formatTime },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, link: AccountLink) => (
              <Button size="small" danger onClick={() => setRemoving(link)} aria-label={`${t('users.linkRemove')} ${link.email}`}>
                {t('users.linkRemove')}
              </Button>
            ),
          },
        ]}
      />
      {adding && (
        <FormModal
          title={t('users.linkTitle', { email: user.email })}
          okText={t('users.linkAdd')}
          form={form}
          busy={add.isPending}
          onClose={() => setAdding(false)}
        >
          <Form form={form} name="user-link" layout="vertical" onFinish={(v) => add.mutate({ uid: v.uid, reason: v.reason })}>
            <Form.Item name="uid" label={t('users.linkUid')} rules={[{ required: true, message: t('validation.required') }]}>
              <InputNumber<number> min={1} precision={0} style={{ width: '100%' }} autoFocus />
            </Form.Item>
            <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
              <Input.TextArea rows={3} maxLength={REASON_MAX} />
            </Form.Item>
          </Form>
        </FormModal>
      )}
      {removing && (
        <ReasonModal
          title={t('users.linkRemoveTitle', { email: user.email, other: removing.email })}
          okText={t('users.linkRemove')}
          danger
          busy={remove.isPending}
          onSubmit={(reason) => remove.mutate({ linkId: removing.id, reason })}
          onClose={() => setRemoving(null)}
        />
      )}
    </Card>
  );
}
