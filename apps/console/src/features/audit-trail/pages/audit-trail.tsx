import type { OperatorActionRecord } from '@coffer/contract/admin';
import { PAGE_SIZE_DEFAULT } from '@coffer/contract/rules';
import { Button, Form, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/format';
import { useLabel } from '../../../lib/labels';
import { type AuditTrailQuery, useAuditTrail } from '../api/audit-trail';
import { ChangeDiff } from '../components/change-diff';

const PAGE_SIZE = PAGE_SIZE_DEFAULT;

interface Filters {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
}

const clean = (value: string | undefined) => value?.trim() || undefined;

export default function AuditTrailPage() {
  const { t } = useTranslation();
  const label = useLabel();
  const [query, setQuery] = useState<AuditTrailQuery>({ page: 1, pageSize: PAGE_SIZE });
  const trail = useAuditTrail(query);

  const apply = (f: Filters) =>
    setQuery({
      page: 1,
      pageSize: query.pageSize,
      actor: clean(f.actor),
      action: clean(f.action)?.toLowerCase(),
      targetType: clean(f.targetType),
      targetId: clean(f.targetId),
    });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.auditTrail')}</Typography.Title>
      <Form layout="inline" onFinish={apply}>
        <Form.Item name="actor" label={t('common.actor')}>
          <Input allowClear maxLength={320} />
        </Form.Item>
        <Form.Item
          name="action"
          label={t('trail.action')}
          rules={[{ pattern: /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\.?$/i, message: t('validation.action') }]}
        >
          <Input allowClear maxLength={64} placeholder="banner." />
        </Form.Item>
        <Form.Item name="targetType" label={t('trail.targetType')}>
          <Input allowClear maxLength={64} />
        </Form.Item>
        <Form.Item name="targetId" label={t('trail.targetId')}>
          <Input allowClear maxLength={128} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('common.search')}
        </Button>
      </Form>
      {trail.isError && <QueryState query={trail} />}
      <Table<OperatorActionRecord>
        size="small"
        rowKey="id"
        loading={trail.isFetching}
        dataSource={trail.data?.list ?? []}
        expandable={{ expandedRowRender: (r) => <ChangeDiff before={r.before} after={r.after} /> }}
        pagination={{
          current: query.page,
          pageSize: query.pageSize,
          total: trail.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (page, pageSize) => setQuery({ ...query, page, pageSize }),
        }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('common.time'), dataIndex: 'createdAt', render: formatTime },
          { title: t('common.actor'), dataIndex: 'actor' },
          {
            title: t('trail.action'),
            dataIndex: 'action',
            // The words, with the code the filter takes beneath them.
            render: (action: string) => (
              <Space orientation="vertical" size={0}>
                <span>{label('auditAction', action)}</span>
                {label('auditAction', action) !== action && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {action}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { title: t('trail.target'), key: 'target', render: (_, r) => (r.targetId ? `${r.targetType} ${r.targetId}` : r.targetType) },
          { title: t('common.reason'), dataIndex: 'reason', render: (v: string | null) => v ?? '—' },
        ]}
      />
    </Space>
  );
}
