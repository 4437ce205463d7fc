import type { AdminHelpArticle, AdminHelpTopic, AdminHelpTree, HelpArticleInput, HelpTopicInput } from '@coffer/contract/content';
import { SORT_ORDER_MAX } from '@coffer/contract/rules';
import { App, Button, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BilingualFields, REQUIRED_BODY } from '../../../components/bilingual-fields';
import { FormModal } from '../../../components/form-modal';
import { QueryState } from '../../../components/query-state';
import { ReasonModal } from '../../../components/reason-modal';
import { errorText } from '@coffer/api-client/api-error';
import { formatTime } from '../../../lib/format';
import { requiredRule } from '../../../lib/form-rules';
import { useDeleteHelpArticle } from '../api/delete-help-article';
import { useDeleteHelpTopic } from '../api/delete-help-topic';
import { useHelpTree } from '../api/help';
import { getHelpArticle } from '../api/help-article';
import { useSaveHelpArticle } from '../api/save-help-article';
import { useSaveHelpTopic } from '../api/save-help-topic';

type TopicRow = AdminHelpTree['topics'][number];
type Deleting = { kind: 'topic' | 'article'; id: number } | null;

function TopicModal({ topic, onClose }: { topic: AdminHelpTopic | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<HelpTopicInput>();
  const save = useSaveHelpTopic(topic?.id ?? null, { done: onClose });
  return (
    <FormModal
      title={topic ? t('content.editTopic', { id: topic.id }) : t('content.newTopic')}
      okText={t('common.save')}
      form={form}
      busy={save.isPending}
      onClose={onClose}
    >
      <Form form={form} layout="vertical" initialValues={topic ?? { sortOrder: 0 }} onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="key"
          label={t('content.topicKey')}
          rules={[requiredRule(t), { pattern: /^[a-z][a-z0-9-]{0,31}$/, message: t('validation.topicKey') }]}
        >
          <Input maxLength={32} />
        </Form.Item>
        <BilingualFields text={null} />
        <Form.Item name="sortOrder" label={t('content.sortOrder')}>
          <InputNumber min={0} max={SORT_ORDER_MAX} precision={0} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

function ArticleModal({ article, topics, onClose }: { article: AdminHelpArticle | null; topics: TopicRow[]; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<HelpArticleInput>();
  const save = useSaveHelpArticle(article?.id ?? null, { done: onClose });
  const en = i18n.language === 'en-US';
  return (
    <FormModal
      width={880}
      title={article ? t('content.editArticle', { id: article.id }) : t('content.newArticle')}
      okText={t('common.save')}
      form={form}
      busy={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={article ?? { sortOrder: 0, topicId: topics[0]?.id }}
        onFinish={(v) => save.mutate(v)}
      >
        <Space align="start">
          <Form.Item name="topicId" label={t('content.topic')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select style={{ width: 240 }} options={topics.map((tp) => ({ value: tp.id, label: en ? tp.titleEn : tp.titleZh }))} />
          </Form.Item>
          <Form.Item name="sortOrder" label={t('content.sortOrder')}>
            <InputNumber min={0} max={SORT_ORDER_MAX} precision={0} />
          </Form.Item>
        </Space>
        <BilingualFields text={REQUIRED_BODY} />
      </Form>
    </FormModal>
  );
}

export default function HelpPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const tree = useHelpTree();
  const [topic, setTopic] = useState<AdminHelpTopic | null | 'new'>(null);
  const [article, setArticle] = useState<AdminHelpArticle | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const removeTopic = useDeleteHelpTopic({ done: () => setDeleting(null) });
  const removeArticle = useDeleteHelpArticle({ done: () => setDeleting(null) });
  const remove = deleting?.kind === 'article' ? removeArticle : removeTopic;
  const topics = tree.data?.topics ?? [];
  const en = i18n.language === 'en-US';

  const openArticle = (id: number) =>
    getHelpArticle(id)
      .then(setArticle)
      .catch((error: unknown) => message.error(errorText(error, t('errors.unexpected'))));

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3}>{t('nav.help')}</Typography.Title>
        <Space>
          <Button onClick={() => setTopic('new')}>{t('content.newTopic')}</Button>
          <Button type="primary" disabled={topics.length === 0} onClick={() => setArticle('new')}>
            {t('content.newArticle')}
          </Button>
        </Space>
      </Space>
      <QueryState query={tree} />
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={topics}
        expandable={{
          defaultExpandAllRows: true,
          expandedRowRender: (row: TopicRow) => (
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={row.articles}
              columns={[
                { title: t('common.id'), dataIndex: 'id' },
                { title: t('content.title'), key: 'title', render: (_, a) => (en ? a.titleEn : a.titleZh) },
                { title: t('content.sortOrder'), dataIndex: 'sortOrder' },
                { title: t('common.updatedAt'), dataIndex: 'updatedAt', render: formatTime },
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_, a) => (
                    <Space>
                      <Button size="small" onClick={() => void openArticle(a.id)} aria-label={t('content.editArticle', { id: a.id })}>
                        {t('common.edit')}
                      </Button>
                      <Button size="small" danger onClick={() => setDeleting({ kind: 'article', id: a.id })}>
                        {t('content.delete')}
                      </Button>
                    </Space>
                  ),
                },
              ]}
            />
          ),
        }}
        columns={[
          { title: t('content.topicKey'), dataIndex: 'key' },
          { title: t('content.topic'), key: 'title', render: (_, tp) => (en ? tp.titleEn : tp.titleZh) },
          { title: t('content.sortOrder'), dataIndex: 'sortOrder' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, tp) => (
              <Space>
                <Button size="small" onClick={() => setTopic(tp)} aria-label={t('content.editTopic', { id: tp.id })}>
                  {t('common.edit')}
                </Button>
                <Button size="small" danger onClick={() => setDeleting({ kind: 'topic', id: tp.id })}>
                  {t('content.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {topic && <TopicModal topic={topic === 'new' ? null : topic} onClose={() => setTopic(null)} />}
      {article && <ArticleModal article={article === 'new' ? null : article} topics={topics} onClose={() => setArticle(null)} />}
      {deleting && (
        <ReasonModal
          title={t('content.deleteTitle', { id: deleting.id })}
          okText={t('content.delete')}
          danger
          busy={remove.isPending}
          onSubmit={(reason) => remove.mutate({ id: deleting.id, reason })}
          onClose={() => setDeleting(null)}
        />
      )}
    </Space>
  );
}
