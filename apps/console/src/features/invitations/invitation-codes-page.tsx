import { ZInvitationCode, ZInvitationCodeCreate, ZInvitationCodePage } from '@kabuto/contract';
import { PlusOutlined } from '@ant-design/icons';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import type { z } from 'zod';
import { api } from '@/shared/client';
import { applyServerIssues, checkForm } from '@/shared/forms';
import { dateTimeText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { isAdministrator, useMe } from '@/shared/queries';

type Code = z.output<typeof ZInvitationCode>;
const PAGE_SIZE = 50;

const codesQuery = (offset: number) =>
  queryOptions({
    queryKey: ['invitation-codes', offset],
    queryFn: () =>
      api.request({
        path: '/invitation-codes',
        query: { limit: PAGE_SIZE, offset },
        schema: ZInvitationCodePage,
      }),
  });

/** Invitation codes: everyone may read them; administrators create campaign codes and deactivate codes. */
export function InvitationCodesPage() {
  const { t, locale } = useLocale();
  const me = useMe();
  const admin = isAdministrator(me.data);
  const [offset, setOffset] = useState(0);
  const query = useQuery(codesQuery(offset));
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [creating, setCreating] = useState(false);
  const [deactivating, setDeactivating] = useState<string | null>(null);
  const [form] = Form.useForm<{ code?: string; note?: string }>();

  const create = useMutation({
    mutationFn: (body: z.output<typeof ZInvitationCodeCreate>) =>
      api.request({ path: '/invitation-codes', body, schema: ZInvitationCode, notify: false }),
    onSuccess: (code) => {
      setCreating(false);
      form.resetFields();
      void message.success(t('invites.created', { code: code.code }));
      void queryClient.invalidateQueries({ queryKey: ['invitation-codes'] });
    },
    onError: (error) => {
      if (!applyServerIssues(form, error)) form.setFields([{ name: 'code', errors: [error.message] }]);
    },
  });
  const deactivate = useMutation({
    mutationFn: (code: string) =>
      api.request({
        path: `/invitation-codes/${encodeURIComponent(code)}/deactivate`,
        body: {},
        schema: ZInvitationCode,
      }),
    onSuccess: () => {
      setDeactivating(null);
      void message.success(t('invites.deactivated'));
      void queryClient.invalidateQueries({ queryKey: ['invitation-codes'] });
    },
  });

  const submit = () => {
    const values = form.getFieldsValue();
    const note = (values.note ?? '').trim();
    const body = checkForm(
      form,
      ZInvitationCodeCreate,
      { code: values.code ?? '', ...(note === '' ? {} : { note }) },
      { code: t('invites.code'), note: t('invites.note') },
    );
    if (body !== null) create.mutate(body);
  };

  const columns: ColumnsType<Code> = [
    {
      title: t('invites.code'),
      key: 'code',
      render: (_, c) => <Typography.Text code>{c.code}</Typography.Text>,
    },
    { title: t('invites.kind'), key: 'kind', render: (_, c) => t(`invites.kinds.${c.kind}`) },
    { title: t('invites.owner'), key: 'owner', render: (_, c) => c.owner_user_id ?? t('common.none') },
    {
      title: t('invites.status'),
      key: 'active',
      render: (_, c) => (
        <Tag color={c.active ? 'green' : 'default'}>{t(c.active ? 'status.active' : 'status.inactive')}</Tag>
      ),
    },
    { title: t('invites.note'), key: 'note', render: (_, c) => c.note ?? t('common.none') },
    { title: t('invites.createdAt'), key: 'at', render: (_, c) => dateTimeText(c.created_at, locale) },
    ...(admin
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, c: Code) =>
              c.active ? (
                <Button
                  size="small"
                  danger
                  onClick={() => {
                    setDeactivating(c.code);
                  }}
                >
                  {t('invites.deactivate')}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
          {t('invites.title')}
        </Typography.Title>
        {admin && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setCreating(true);
            }}
          >
            {t('invites.create')}
          </Button>
        )}
      </Space>
      <Table<Code>
        rowKey="code"
        size="middle"
        loading={query.isFetching}
        dataSource={query.data?.items ?? []}
        columns={columns}
        pagination={{
          current: Math.floor(offset / PAGE_SIZE) + 1,
          pageSize: PAGE_SIZE,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { count: total }),
          onChange: (page) => {
            setOffset((page - 1) * PAGE_SIZE);
          },
        }}
      />
      <Modal
        open={creating}
        title={t('invites.create')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={create.isPending}
        onOk={submit}
        onCancel={() => {
          setCreating(false);
        }}
        destroyOnHidden
      >
        <Form form={form} name="invite-create" layout="vertical" requiredMark={false}>
          <Form.Item label={t('invites.code')} name="code">
            <Input maxLength={32} style={{ textTransform: 'uppercase' }} />
          </Form.Item>
          <Form.Item label={t('invites.note')} name="note">
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={deactivating !== null}
        title={t('invites.deactivate')}
        okText={t('invites.deactivate')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        confirmLoading={deactivate.isPending}
        onOk={() => {
          if (deactivating !== null) deactivate.mutate(deactivating);
        }}
        onCancel={() => {
          setDeactivating(null);
        }}
      >
        {t('invites.deactivateConfirm', { code: deactivating ?? '' })}
      </Modal>
    </Space>
  );
}
