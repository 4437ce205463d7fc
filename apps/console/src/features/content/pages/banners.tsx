import type { AdminBanner, BannerInput, BannerLinkInput, BannerLinkType } from '@coffer/contract/content';
import { ROUTE_PATH_MAX, SORT_ORDER_MAX } from '@coffer/contract/rules';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BilingualFields } from '../../../components/bilingual-fields';
import { FormModal } from '../../../components/form-modal';
import { QueryState } from '../../../components/query-state';
import { ReasonModal } from '../../../components/reason-modal';
import { formatTime } from '../../../lib/format';
import { requiredRule } from '../../../lib/form-rules';
import { useBanners } from '../api/banners';
import { useReorderBanners } from '../api/reorder-banners';
import { useRetireBanner } from '../api/retire-banner';
import { useSaveBanner } from '../api/save-banner';
import { ImageField } from '../components/image-field';
import { fromIso, toIso } from '../../../lib/schedule';

interface BannerForm {
  titleZh: string;
  titleEn: string;
  bodyZh?: string;
  bodyEn?: string;
  imageUrl: string;
  linkType: BannerLinkType;
  activityId?: number;
  path?: string;
  sortOrder?: number;
  startsAt?: Dayjs | null;
  endsAt?: Dayjs | null;
}

const STATE_COLORS = { scheduled: 'blue', live: 'green', ended: 'default', retired: 'red' } as const;

function linkOf(v: BannerForm): BannerLinkInput {
  if (v.linkType === 'ranking') return { type: 'ranking', activityId: v.activityId ?? 0 };
  if (v.linkType === 'route') return { type: 'route', path: (v.path ?? '').trim() };
  return { type: 'detail' };
}

function toInput(v: BannerForm): BannerInput {
  return {
    titleZh: v.titleZh.trim(),
    titleEn: v.titleEn.trim(),
    bodyZh: v.bodyZh ?? '',
    bodyEn: v.bodyEn ?? '',
    imageUrl: v.imageUrl.trim(),
    link: linkOf(v),
    sortOrder: v.sortOrder ?? 0,
    startsAt: toIso(v.startsAt),
    endsAt: toIso(v.endsAt) ?? null,
  };
}

function initialOf(banner: AdminBanner | null): Partial<BannerForm> {
  if (!banner) return { linkType: 'detail', sortOrder: 0, bodyZh: '', bodyEn: '' };
  const { link } = banner;
  return {
    ...banner,
    linkType: link.type,
    activityId: link.type === 'ranking' ? link.activityId : undefined,
    path: link.type === 'route' ? link.path : undefined,
    startsAt: fromIso(banner.startsAt),
    endsAt: fromIso(banner.endsAt),
  };
}

function BannerModal({ banner, onClose }: { banner: AdminBanner | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BannerForm>();
  const linkType = Form.useWatch('linkType', form);
  const save = useSaveBanner(banner?.id ?? null, { done: onClose });
  return (
    <FormModal
      width={880}
      title={banner ? t('content.editBanner', { id: banner.id }) : t('content.newBanner')}
      okText={t('common.save')}
      form={form}
      busy={save.isPending}
      onClose={onClose}
    >
      <Form form={form} layout="vertical" initialValues={initialOf(banner)} onFinish={(v) => save.mutate(toInput(v))}>
        <BilingualFields />
        <ImageField />
        <Space wrap align="start">
          <Form.Item name="linkType" label={t('content.linkType')}>
            <Select
              style={{ width: 180 }}
              options={[
                { value: 'detail', label: t('content.links.detail') },
                { value: 'ranking', label: t('content.links.ranking') },
                { value: 'route', label: t('content.links.route') },
              ]}
            />
          </Form.Item>
          {linkType === 'ranking' && (
            <Form.Item name="activityId" label={t('content.activityId')} rules={[{ required: true, message: t('validation.required') }]}>
              <InputNumber min={1} precision={0} />
            </Form.Item>
          )}
          {linkType === 'route' && (
            <Form.Item
              name="path"
              label={t('content.linkTarget')}
              rules={[requiredRule(t), { pattern: /^\/(?![/\\])/, message: t('validation.path') }]}
            >
              <Input placeholder="/swap" maxLength={ROUTE_PATH_MAX} style={{ width: 240 }} />
            </Form.Item>
          )}
          <Form.Item name="sortOrder" label={t('content.sortOrder')}>
            <InputNumber min={0} max={SORT_ORDER_MAX} precision={0} />
          </Form.Item>
          <Form.Item name="startsAt" label={t('content.startsAt')}>
            <DatePicker showTime />
          </Form.Item>
          <Form.Item name="endsAt" label={t('content.endsAt')}>
            <DatePicker showTime />
          </Form.Item>
        </Space>
      </Form>
    </FormModal>
  );
}

export default function BannersPage() {
  const { t, i18n } = useTranslation();
  const banners = useBanners();
  const [editing, setEditing] = useState<AdminBanner | null | 'new'>(null);
  const [retiring, setRetiring] = useState<AdminBanner | null>(null);
  const retire = useRetireBanner({ done: () => setRetiring(null), success: () => t('content.retired') });
  // A move shows itself in the list: no message.
  const reorder = useReorderBanners({ success: null });
  const en = i18n.language === 'en-US';
  // Display order of the banners still in use; a move swaps two neighbours and renumbers them all.
  const active = (banners.data?.list ?? []).filter((b) => b.state !== 'retired').map((b) => b.id);
  const move = (id: number, by: -1 | 1) => {
    const from = active.indexOf(id);
    const to = from + by;
    if (from < 0 || to < 0 || to >= active.length) return;
    const ids = [...active];
    [ids[from], ids[to]] = [ids[to] as number, ids[from] as number];
    reorder.mutate(ids);
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3}>{t('nav.banners')}</Typography.Title>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('content.newBanner')}
        </Button>
      </Space>
      <QueryState query={banners} />
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={banners.data?.list ?? []}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          {
            title: t('content.image'),
            dataIndex: 'imageUrl',
            render: (url: string) => <img className="console-thumb console-thumb-small" src={url} alt="" />,
          },
          { title: t('content.title'), key: 'title', render: (_, b) => (en ? b.titleEn : b.titleZh) },
          { title: t('content.linkTarget'), dataIndex: 'href' },
          { title: t('content.sortOrder'), dataIndex: 'sortOrder' },
          { title: t('content.startsAt'), dataIndex: 'startsAt', render: formatTime },
          { title: t('content.endsAt'), dataIndex: 'endsAt', render: formatTime },
          {
            title: t('content.state'),
            dataIndex: 'state',
            render: (state: AdminBanner['state']) => <Tag color={STATE_COLORS[state]}>{t(`content.states.${state}`)}</Tag>,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, b) =>
              b.state === 'retired' ? null : (
                <Space>
                  <Button
                    size="small"
                    disabled={active.indexOf(b.id) === 0 || reorder.isPending}
                    onClick={() => move(b.id, -1)}
                    aria-label={t('content.moveUp', { id: b.id })}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    disabled={active.indexOf(b.id) === active.length - 1 || reorder.isPending}
                    onClick={() => move(b.id, 1)}
                    aria-label={t('content.moveDown', { id: b.id })}
                  >
                    ↓
                  </Button>
                  <Button size="small" onClick={() => setEditing(b)} aria-label={t('content.editBanner', { id: b.id })}>
                    {t('common.edit')}
                  </Button>
                  <Button size="small" danger onClick={() => setRetiring(b)} aria-label={t('content.retireTitle', { id: b.id })}>
                    {t('content.retire')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {editing && <BannerModal banner={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {retiring && (
        <ReasonModal
          title={t('content.retireTitle', { id: retiring.id })}
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
