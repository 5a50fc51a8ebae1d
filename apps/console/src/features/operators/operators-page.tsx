import {
  ZOperator,
  ZOperatorCreate,
  ZOperatorCreated,
  ZOperatorList,
  type TOperator,
} from '@kabuto/contract';
import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import type { z } from 'zod';
import { api } from '@/shared/client';
import { applyServerIssues, checkForm } from '@/shared/forms';
import { dateTimeText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { useMe } from '@/shared/queries';

const operatorsQuery = queryOptions({
  queryKey: ['operators'],
  queryFn: () => api.request({ path: '/operators', schema: ZOperatorList }),
});

type Created = z.output<typeof ZOperatorCreated>;

/** The one-time password of a new operator, shown once, with a copy button and a warning. */
function OneTimePassword({ created, onClose }: { created: Created; onClose: () => void }) {
  const { t } = useLocale();
  const { message } = App.useApp();
  const name = created.operator.display_name;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.one_time_password);
      void message.success(t('common.copied'));
    } catch {
      // No clipboard access (e.g. not a secure context): the password stays selectable on screen.
    }
  };
  return (
    <Modal
      open
      title={t('operators.oneTimeTitle', { name })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
      // Shown once: closed only on purpose, with the button.
      closable={false}
      maskClosable={false}
      keyboard={false}
    >
      <Alert
        type="warning"
        showIcon
        message={t('operators.oneTimeWarning', { name })}
        style={{ marginBottom: 16 }}
      />
      <Space.Compact style={{ width: '100%' }}>
        <Input
          readOnly
          aria-label={t('operators.oneTimeLabel')}
          value={created.one_time_password}
          style={{ fontFamily: 'monospace' }}
        />
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          {t('common.copy')}
        </Button>
      </Space.Compact>
    </Modal>
  );
}

/** Operator accounts (administrators only): create with a one-time password, deactivate, unlock. */
export function OperatorsPage() {
  const { t, locale } = useLocale();
  const me = useMe();
  const query = useQuery(operatorsQuery);
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [deactivating, setDeactivating] = useState<TOperator | null>(null);
  const [form] = Form.useForm<{ username?: string; display_name?: string; role?: string }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['operators'] });

  const create = useMutation({
    mutationFn: (body: z.output<typeof ZOperatorCreate>) =>
      api.request({ path: '/operators', body, schema: ZOperatorCreated, notify: false }),
    onSuccess: (result) => {
      setCreating(false);
      form.resetFields();
      setCreated(result);
      void refresh();
    },
    onError: (error) => {
      if (!applyServerIssues(form, error)) form.setFields([{ name: 'username', errors: [error.message] }]);
    },
  });
  const deactivate = useMutation({
    mutationFn: (id: number) =>
      api.request({ path: `/operators/${id}/deactivate`, body: {}, schema: ZOperator }),
    onSuccess: () => {
      setDeactivating(null);
      void message.success(t('operators.deactivated'));
      void refresh();
    },
  });
  const unlock = useMutation({
    mutationFn: (id: number) => api.request({ path: `/operators/${id}/unlock`, body: {}, schema: ZOperator }),
    onSuccess: () => {
      void message.success(t('operators.unlocked'));
      void refresh();
    },
  });

  const submit = () => {
    const values = form.getFieldsValue();
    const body = checkForm(
      form,
      ZOperatorCreate,
      {
        username: values.username ?? '',
        display_name: values.display_name ?? '',
        role: values.role ?? 'reviewer',
      },
      {
        username: t('operators.username'),
        display_name: t('operators.displayName'),
        role: t('operators.role'),
      },
    );
    if (body !== null) create.mutate(body);
  };

  // When the page opened: a lock that ends later shows as ended after a refresh.
  const [now] = useState(() => Date.now());
  const columns: ColumnsType<TOperator> = [
    { title: t('operators.username'), dataIndex: 'username', key: 'username' },
    { title: t('operators.displayName'), dataIndex: 'display_name', key: 'name' },
    { title: t('operators.role'), key: 'role', render: (_, o) => t(`roles.${o.role}`) },
    {
      title: t('operators.status'),
      key: 'status',
      render: (_, o) => {
        const locked = o.locked_until !== null && Date.parse(o.locked_until) > now;
        return (
          <Space wrap>
            <Tag color={o.active ? 'green' : 'default'}>
              {t(o.active ? 'status.active' : 'status.inactive')}
            </Tag>
            {locked && (
              <Tag color="red">
                {t('operators.lockedUntil', { at: dateTimeText(o.locked_until, locale) })}
              </Tag>
            )}
            {o.must_change_password && <Tag color="gold">{t('operators.mustChange')}</Tag>}
          </Space>
        );
      },
    },
    { title: t('operators.createdAt'), key: 'at', render: (_, o) => dateTimeText(o.created_at, locale) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, o) => {
        const locked = o.locked_until !== null && Date.parse(o.locked_until) > now;
        const self = o.id === me.data?.id;
        return (
          <Space>
            {locked && (
              <Button
                size="small"
                onClick={() => {
                  unlock.mutate(o.id);
                }}
                loading={unlock.isPending && unlock.variables === o.id}
              >
                {t('operators.unlock')}
              </Button>
            )}
            {o.active && !self && (
              <Button
                size="small"
                danger
                onClick={() => {
                  setDeactivating(o);
                }}
              >
                {t('operators.deactivate')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
          {t('operators.title')}
        </Typography.Title>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setCreating(true);
          }}
        >
          {t('operators.create')}
        </Button>
      </Space>
      <Table<TOperator>
        rowKey="id"
        size="middle"
        loading={query.isFetching}
        dataSource={query.data?.items ?? []}
        columns={columns}
        pagination={false}
      />
      <Modal
        open={creating}
        title={t('operators.create')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={create.isPending}
        onOk={submit}
        onCancel={() => {
          setCreating(false);
        }}
        destroyOnHidden
      >
        <Form
          form={form}
          name="operator-create"
          layout="vertical"
          requiredMark={false}
          initialValues={{ role: 'reviewer' }}
        >
          <Form.Item
            label={t('operators.username')}
            name="username"
            extra={t('validation.operatorUsername', { ns: 'contract' })}
          >
            <Input maxLength={40} autoComplete="off" />
          </Form.Item>
          <Form.Item label={t('operators.displayName')} name="display_name">
            <Input maxLength={60} autoComplete="off" />
          </Form.Item>
          <Form.Item label={t('operators.role')} name="role">
            <Select
              options={[
                { value: 'reviewer', label: t('roles.reviewer') },
                { value: 'editor', label: t('roles.editor') },
                { value: 'administrator', label: t('roles.administrator') },
              ]}
            />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={deactivating !== null}
        title={t('operators.deactivate')}
        okText={t('operators.deactivate')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        confirmLoading={deactivate.isPending}
        onOk={() => {
          if (deactivating !== null) deactivate.mutate(deactivating.id);
        }}
        onCancel={() => {
          setDeactivating(null);
        }}
      >
        {t('operators.deactivateConfirm', { name: deactivating?.display_name ?? '' })}
      </Modal>
      {created !== null && (
        <OneTimePassword
          created={created}
          onClose={() => {
            setCreated(null);
          }}
        />
      )}
    </Space>
  );
}
