import { Input, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { ColumnsType } from 'antd/es/table';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import type { ZConsoleUserRow } from '@kabuto/contract';
import { dateTimeText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';
import { usersQuery } from './users-api';

type Row = z.output<typeof ZConsoleUserRow>;
const PAGE_SIZE = 20;

/** Finds users by mobile number, user ID or name (read only). */
export function UsersPage() {
  const { t, locale } = useLocale();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const list = useQuery(usersQuery(q, PAGE_SIZE, (page - 1) * PAGE_SIZE));

  const columns: ColumnsType<Row> = [
    { title: t('users.userId'), dataIndex: 'user_id', key: 'user_id', width: 100 },
    { title: t('users.phone'), dataIndex: 'phone', key: 'phone' },
    { title: t('users.fullName'), key: 'full_name', render: (_, r) => r.full_name ?? t('common.none') },
    {
      title: t('users.realName'),
      key: 'status',
      render: (_, r) => <StatusTag status={r.real_name_status} />,
    },
    { title: t('users.createdAt'), key: 'created_at', render: (_, r) => dateTimeText(r.created_at, locale) },
    {
      title: t('common.actions'),
      key: 'open',
      render: (_, r) => <Link to={`/users/${r.user_id}`}>{t('users.open')}</Link>,
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('users.title')}
      </Typography.Title>
      <Input.Search
        aria-label={t('users.search')}
        placeholder={t('users.searchPlaceholder')}
        defaultValue={q}
        allowClear
        enterButton={t('common.search')}
        style={{ maxWidth: 480 }}
        onSearch={(value) => {
          setParams(value.trim() === '' ? {} : { q: value.trim() });
        }}
      />
      <Table<Row>
        rowKey="user_id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        columns={columns}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { count: total }),
          onChange: (p) => {
            setParams(q === '' ? { page: String(p) } : { q, page: String(p) });
          },
        }}
      />
    </Space>
  );
}
