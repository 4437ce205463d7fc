import type { AdminNotice, NoticeInput } from '@coffer/contract/content';
import { PAGE_SIZE_DEFAULT } from '@coffer/contract/rules';
import { Button, DatePicker, Form, Input, InputNumber, Radio, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BilingualFields } from '../../../components/bilingual-fields';
import { FormModal } from '../../../components/form-modal';
import { QueryState } from '../../../components/query-state';
import { ReasonModal } from '../../../components/reason-modal';
import { formatTime } from '../../../lib/format';
import { useCreateNotice } from '../api/create-notice';
import { type NoticeQuery, useNotices } from '../api/notices';
import { useRetireNotice } from '../api/retire-notice';
import { toIso } from '../../../lib/schedule';

interface NoticeForm {
  audience: 'public' | 'user';
  uid?: number;
  kind?: string;
  titleZh: string;
  titleEn: string;
  bodyZh?: string;
  bodyEn?: string;
  publishedAt?: Dayjs | null;
}

const PAGE_SIZE = PAGE_SIZE_DEFAULT;
const STATE_COLORS = { scheduled: 'blue', published: 'green', retired: 'red' } as const;

function toInput(v: NoticeForm): NoticeInput {
  return {
    uid: v.audience === 'user' ? (v.uid ?? null) : null,
    kind: v.kind?.trim() || 'general',
    titleZh: v.titleZh.trim(),
    titleEn: v.titleEn.trim(),
    bodyZh: v.bodyZh ?? '',
    bodyEn: v.bodyEn ?? '',
    publishedAt: toIso(v.publishedAt),
  };
}

function NoticeModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NoticeForm>();
  const audience = Form.useWatch('audience', form);
  const save = useCreateNotice({ done: onClose });
  return (
    <FormModal width={880} title={t('content.newNotice')} okText={t('common.create')} form={form} busy={save.isPending} onClose={onClose}>
      <Form form={form} layout="vertical" initialValues={{ audience: 'public', kind: 'general' }} onFinish={(v) => save.mutate(toInput(v))}>
        <Space wrap align="start">
          <Form.Item name="audience" label={t('content.audience')}>
            <Radio.Group
              options={[
                { value: 'public', label: t('content.public') },
                { value: 'user', label: t('content.toUser') },
              ]}
            />
          </Form.Item>
          {audience === 'user' && (
            <Form.Item name="uid" label={t('content.targetUid')} rules={[{ required: true, message: t('validation.required') }]}>
              <InputNumber min={1} precision={0} />
            </Form.Item>
          )}
          <Form.Item name="kind" label={t('content.kind')} rules={[{ pattern: /^[a-z][a-z0-9_]{0,31}$/, message: t('validation.kind') }]}>
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item name="publishedAt" label={t('content.publishedAt')}>
            <DatePicker showTime />
          </Form.Item>
        </Space>
        <BilingualFields />
      </Form>
    </FormModal>
  );
}

export default function NoticesPage() {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState<NoticeQuery>({ page: 1, pageSize: PAGE_SIZE, scope: 'all' });
  const notices = useNotices(query);
  const [creating, setCreating] = useState(false);
  const [retiring, setRetiring] = useState<AdminNotice | null>(null);
  const retire = useRetireNotice({ done: () => setRetiring(null), success: () => t('content.retired') });
  const en = i18n.language === 'en-US';

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3}>{t('nav.notices')}</Typography.Title>
        <Button type="primary" onClick={() => setCreating(true)}>
          {t('content.newNotice')}
        </Button>
      </Space>
      <Space>
        <Segmented<NoticeQuery['scope']>
          value={query.scope}
          onChange={(scope) => setQuery({ ...query, scope, page: 1 })}
          options={[
            { value: 'all', label: t('common.all') },
            { value: 'public', label: t('content.public') },
            { value: 'personal', label: t('content.personal') },
          ]}
        />
        <InputNumber<number>
          aria-label={t('content.targetUid')}
          placeholder={t('content.targetUid')}
          min={1}
          precision={0}
          onChange={(uid) => setQuery({ ...query, uid: uid ?? undefined, page: 1 })}
          style={{ width: 160 }}
        />
      </Space>
      {notices.isError && <QueryState query={notices} />}
      <Table
        size="small"
        rowKey="id"
        loading={notices.isFetching}
        dataSource={notices.data?.list ?? []}
        pagination={{
          current: query.page,
          pageSize: query.pageSize,
          total: notices.data?.total ?? 0,
          onChange: (page) => setQuery({ ...query, page }),
          showSizeChanger: false,
        }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('content.title'), key: 'title', render: (_, n) => (en ? n.titleEn : n.titleZh) },
          {
            title: t('content.audience'),
            dataIndex: 'uid',
            render: (uid: number | null) => (uid === null ? t('content.public') : `UID ${uid}`),
          },
          { title: t('content.kind'), dataIndex: 'kind' },
          { title: t('content.publishedAt'), dataIndex: 'publishedAt', render: formatTime },
          {
            title: t('content.state'),
            dataIndex: 'state',
            render: (state: AdminNotice['state']) => <Tag color={STATE_COLORS[state]}>{t(`content.states.${state}`)}</Tag>,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, n) =>
              n.state === 'retired' ? null : (
                <Button size="small" danger onClick={() => setRetiring(n)} aria-label={t('content.retireNotice', { id: n.id })}>
                  {t('content.retire')}
                </Button>
              ),
          },
        ]}
      />
      {creating && <NoticeModal onClose={() => setCreating(false)} />}
      {retiring && (
        <ReasonModal
          title={t('content.retireNotice', { id: retiring.id })}
          okText={t('content.retire')}
          danger
          busy={retire.isPending}
          onSubmit={(reason) => retire.mutate({ id: retiring.id, reason })}
          onClose={() => setRetiring(null)}
        />
      )}
    </Space>
  );
}
