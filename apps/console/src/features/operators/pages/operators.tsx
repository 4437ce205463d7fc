import type { OperatorItem, OperatorRole } from '@coffer/contract/admin';
import { OPERATOR_ROLES } from '@coffer/contract/rules';
import { Button, Card, Checkbox, Form, Input, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/format';
import { REASON_MAX, reasonRules } from '../../../lib/form-rules';
import { useOperators } from '../api/operators';
import { useSetOperatorRoles } from '../api/set-roles';

interface RolesForm {
  uid?: number;
  roles: OperatorRole[];
  reason: string;
}

/** Edits one operator's roles (all unticked: no longer an operator), or makes a user (by UID) one. */
function RolesModal({ operator, onClose }: { operator: OperatorItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RolesForm>();
  const save = useSetOperatorRoles({
    done: onClose,
    success: (data) => (data.changed ? t('common.saved') : t('operators.unchanged')),
  });
  return (
    <FormModal
      title={operator ? t('operators.editTitle', { email: operator.email }) : t('operators.addTitle')}
      okText={t('common.save')}
      form={form}
      busy={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="operator-roles"
        layout="vertical"
        onFinish={(v) => save.mutate({ uid: operator?.uid ?? v.uid!, roles: v.roles, reason: v.reason })}
        initialValues={{ roles: operator?.roles ?? ['support'] }}
      >
        {!operator && (
          <Form.Item name="uid" label={t('operators.uid')} rules={[{ required: true, message: t('validation.required') }]}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item name="roles" label={t('operators.roles')} extra={operator ? t('operators.noneRemoves') : undefined}>
          <Checkbox.Group options={OPERATOR_ROLES.map((r) => ({ value: r, label: t(`operators.role.${r}`) }))} />
        </Form.Item>
        <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
          <Input.TextArea rows={2} maxLength={REASON_MAX} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** Operators with their roles, second factors and last activity; an admin edits roles with a reason (audited). */
export default function OperatorsPage() {
  const { t } = useTranslation();
  const operators = useOperators();
  const [editing, setEditing] = useState<OperatorItem | 'new' | null>(null);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.operators')}</Typography.Title>
      <Card title={t('operators.title')} extra={<Button onClick={() => setEditing('new')}>{t('operators.add')}</Button>}>
        <Typography.Paragraph type="secondary">{t('operators.rolesHint')}</Typography.Paragraph>
        <QueryState query={operators} />
        <Table
          size="small"
          rowKey="uid"
          pagination={false}
          dataSource={operators.data ?? []}
          columns={[
            { title: t('operators.email'), dataIndex: 'email' },
            { title: t('operators.uid'), dataIndex: 'uid' },
            {
              title: t('operators.roles'),
              dataIndex: 'roles',
              render: (roles: OperatorRole[]) => roles.map((r) => <Tag key={r}>{t(`operators.role.${r}`)}</Tag>),
            },
            {
              title: t('operators.secondFactor'),
              key: 'secondFactor',
              render: (_, o) =>
                o.totp || o.passkeys > 0 ? (
                  <Tag color="green">
                    {[o.totp && t('operators.totp'), o.passkeys > 0 && t('operators.passkeys', { count: o.passkeys })]
                      .filter(Boolean)
                      .join(' · ')}
                  </Tag>
                ) : (
                  <Tag color="red">{t('operators.noSecondFactor')}</Tag>
                ),
            },
            { title: t('operators.lastSeen'), dataIndex: 'lastSeenAt', render: formatTime },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, o) => (
                <Button size="small" onClick={() => setEditing(o)} aria-label={t('operators.editTitle', { email: o.email })}>
                  {t('operators.editRoles')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      {editing && <RolesModal operator={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Space>
  );
}
