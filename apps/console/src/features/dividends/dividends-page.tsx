import {
  ZDividendAnnouncement,
  ZDividendAnnouncements,
  formatYen,
  parseYenInput,
  type TDividendAnnouncement,
  type TDividendAnnounceBody,
} from '@kabuto/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { api } from '@/shared/client';
import { applyServerIssues } from '@/shared/forms';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';
import { isAdministrator, useMe } from '@/shared/queries';
import { StockSelect } from '@/shared/stock-select';

const announcementsQuery = queryOptions({
  queryKey: ['console-dividends'],
  staleTime: 0,
  queryFn: () => api.request({ path: '/dividends', schema: ZDividendAnnouncements }),
});

interface Values {
  code: string;
  /** yen per share as typed, up to two decimals */
  per_share: string;
  record_date: Dayjs | null;
  payment_date: Dayjs | null;
}

const bodyOf = (v: Values): TDividendAnnounceBody => ({
  code: v.code,
  per_share: parseYenInput(v.per_share) ?? (0 as TDividendAnnounceBody['per_share']),
  record_date: v.record_date?.format('YYYY-MM-DD') ?? '',
  payment_date: v.payment_date?.format('YYYY-MM-DD') ?? '',
});

/**
 * /dividends (issue 17, ADR 0027): the dividend announcements with the cum date (権利付最終日) and ex date
 * (権利落ち日) the server computes on the exchange calendar; administrators announce one (stock, dividend per
 * share, record date, payment date). Entitlement and payment are the server's: nobody enters who receives
 * what.
 */
export function DividendsPage() {
  const { t, locale } = useLocale();
  const me = useMe();
  const admin = isAdministrator(me.data);
  const list = useQuery(announcementsQuery);
  const columns: ColumnsType<TDividendAnnouncement> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    { title: t('dividends.stock'), render: (_, d) => `${d.code} ${d.name}` },
    { title: t('dividends.perShare'), render: (_, d) => formatYen(d.per_share, locale, 2) },
    { title: t('dividends.recordDate'), dataIndex: 'record_date' },
    { title: t('dividends.cumDate'), dataIndex: 'cum_date' },
    { title: t('dividends.exDate'), dataIndex: 'ex_date' },
    { title: t('dividends.paymentDate'), dataIndex: 'payment_date' },
    {
      title: t('dividends.status'),
      render: (_, d) => (
        <Tag color={d.status === 'paid' ? 'green' : 'blue'}>{t(`dividends.statuses.${d.status}`)}</Tag>
      ),
    },
    {
      title: t('dividends.source'),
      render: (_, d) =>
        d.source === null ? (
          t('dividends.byOperator')
        ) : (
          <Typography.Text ellipsis={{ tooltip: d.source }} style={{ maxWidth: 240 }}>
            {d.source}
          </Typography.Text>
        ),
    },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={3}>{t('dividends.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('dividends.rule')}</Typography.Paragraph>
      {admin && <AnnounceForm />}
      <Table<TDividendAnnouncement>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        columns={columns}
        pagination={{ pageSize: 50 }}
        scroll={{ x: true }}
      />
    </Space>
  );
}

/** Announcing a dividend (administrators); the answer's cum and ex dates are shown once it is accepted. */
export function AnnounceForm() {
  const { t, locale } = useLocale();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [announced, setAnnounced] = useState<TDividendAnnouncement | null>(null);
  const announce = useMutation({
    mutationFn: (v: Values) =>
      api.request({ path: '/dividends', body: bodyOf(v), schema: ZDividendAnnouncement, notify: false }),
    onSuccess: (row) => {
      form.resetFields();
      setAnnounced(row);
      void client.invalidateQueries({ queryKey: announcementsQuery.queryKey });
    },
    onError: (e) => {
      if (!applyServerIssues(form, e)) setError(e.message);
    },
  });
  return (
    <Card title={t('dividends.announceTitle')}>
      <Form<Values>
        form={form}
        layout="vertical"
        name="dividend-announce"
        onFinish={(v) => {
          setError(null);
          setAnnounced(null);
          announce.mutate(v);
        }}
      >
        <Space wrap align="start">
          <Form.Item
            name="code"
            label={t('dividends.stock')}
            rules={[{ required: true, message: tContract('validation.productCode') }]}
          >
            <StockSelect />
          </Form.Item>
          <Form.Item
            name="per_share"
            label={t('dividends.perShareYen')}
            required
            rules={[
              {
                validator: async (_, value: string | undefined) => {
                  const amount = parseYenInput(value ?? '');
                  if (amount === null || amount <= 0)
                    throw new Error(tContract('validation.productPositive'));
                },
              },
            ]}
          >
            <Input inputMode="decimal" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name="record_date"
            label={t('dividends.recordDate')}
            rules={[{ required: true, message: tContract('validation.dateFormat') }]}
          >
            <DatePicker format="YYYY-MM-DD" />
          </Form.Item>
          <Form.Item
            name="payment_date"
            label={t('dividends.paymentDate')}
            rules={[{ required: true, message: tContract('validation.dateFormat') }]}
          >
            <DatePicker format="YYYY-MM-DD" />
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary">{t('dividends.datesNote')}</Typography.Paragraph>
        {error !== null && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        {announced !== null && (
          <Alert
            type="success"
            showIcon
            data-testid="dividend-announced"
            style={{ marginBottom: 16 }}
            message={t('dividends.announced', {
              stock: `${announced.code} ${announced.name}`,
              per_share: formatYen(announced.per_share, locale, 2),
              cum: announced.cum_date,
              ex: announced.ex_date,
            })}
          />
        )}
        <Button type="primary" htmlType="submit" loading={announce.isPending} data-testid="dividend-publish">
          {t('dividends.announce')}
        </Button>
      </Form>
    </Card>
  );
}
