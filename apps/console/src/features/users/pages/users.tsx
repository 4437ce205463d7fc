import { PAGE_SIZE_DEFAULT } from '@coffer/contract/rules';
import { Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/format';
import { useLabel } from '../../../lib/labels';
import { useUsers } from '../api/users';

const PAGE_SIZE = PAGE_SIZE_DEFAULT;

export default function UsersPage() {
  const { t } = useTranslation();
  const label = useLabel();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const users = useUsers({ q: q || undefined, page, pageSize });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('nav.users')}</Typography.Title>
      <Input.Search
        aria-label={t('users.search')}
        placeholder={t('users.search')}
        enterButton={t('common.search')}
        allowClear
        maxLength={320}
        style={{ maxWidth: 420 }}
        onSearch={(value) => {
          setQ(value.trim());
          setPage(1);
        }}
      />
      {users.isError && <QueryState query={users} />}
      <Table
        rowKey="uid"
        size="small"
        loading={users.isFetching}
        dataSource={users.data?.list ?? []}
        pagination={{
          current: page,
          pageSize,
          total: users.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (next, size) => {
            setPage(next);
            setPageSize(size);
          },
        }}
        columns={[
          { title: t('common.uid'), dataIndex: 'uid', render: (uid: number) => <Link to={`/users/${uid}`}>{uid}</Link> },
          { title: t('common.email'), dataIndex: 'email' },
          { title: t('users.nickname'), dataIndex: 'nickname' },
          { title: t('users.role'), dataIndex: 'role', render: (role: string) => label('role', role) },
          {
            title: t('common.status'),
            dataIndex: 'disabled',
            render: (disabled: boolean) => (
              <Tag color={disabled ? 'red' : 'green'}>{label('userStatus', disabled ? 'disabled' : 'active')}</Tag>
            ),
          },
          { title: t('common.createdAt'), dataIndex: 'createdAt', render: formatTime },
        ]}
      />
    </Space>
  );
}
