import { Button, DatePicker, Form, Input, InputNumber, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { AuditTable, type AuditFilter } from '@/shared/audit-table';
import { useLocale } from '@/shared/locale';

const PAGE_SIZE = 20;

interface FilterValues {
  operator_id?: number | null;
  action?: string;
  target_type?: string;
  target_id?: string;
  user_id?: number | null;
  dates?: [Dayjs | null, Dayjs | null] | null;
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? undefined : trimmed;
}

/** Every operator action (and what it changed), filterable. */
export function AuditPage() {
  const { t } = useLocale();
  const [form] = Form.useForm<FilterValues>();
  const [filter, setFilter] = useState<AuditFilter>({ limit: PAGE_SIZE, offset: 0 });

  const apply = (values: FilterValues) => {
    const [from, to] = values.dates ?? [null, null];
    setFilter({
      operator_id: values.operator_id ?? undefined,
      action: text(values.action),
      target_type: text(values.target_type),
      target_id: text(values.target_id),
      user_id: values.user_id ?? undefined,
      from: from?.format('YYYY-MM-DD'),
      to: to?.format('YYYY-MM-DD'),
      limit: PAGE_SIZE,
      offset: 0,
    });
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('audit.title')}
      </Typography.Title>
      <Form form={form} name="audit-filter" layout="inline" onFinish={apply} style={{ rowGap: 12 }}>
        <Form.Item label={t('audit.operatorId')} name="operator_id">
          <InputNumber min={1} precision={0} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item label={t('audit.action')} name="action">
          <Input style={{ width: 200 }} allowClear />
        </Form.Item>
        <Form.Item label={t('audit.targetType')} name="target_type">
          <Input style={{ width: 150 }} allowClear />
        </Form.Item>
        <Form.Item label={t('audit.targetId')} name="target_id">
          <Input style={{ width: 120 }} allowClear />
        </Form.Item>
        <Form.Item label={t('audit.user')} name="user_id">
          <InputNumber min={1} precision={0} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item label={t('audit.dates')} name="dates">
          <DatePicker.RangePicker allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              {t('common.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setFilter({ limit: PAGE_SIZE, offset: 0 });
              }}
            >
              {t('common.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <AuditTable
        filter={filter}
        pageSize={PAGE_SIZE}
        onPage={(page) => {
          setFilter((f) => ({ ...f, offset: (page - 1) * PAGE_SIZE }));
        }}
      />
    </Space>
  );
}
