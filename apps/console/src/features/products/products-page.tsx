import {
  ZProductDetail,
  ZProductList,
  parseYenInput,
  type TProduct,
  type TProductVersionBody,
} from '@kabuto/contract';
import { fieldIssuesOf } from '@kabuto/client/api-error';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Modal,
  Space,
  Table,
  Tag,
  Typography,
  type FormInstance,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { z } from 'zod';
import { useState } from 'react';
import { api } from '@/shared/client';
import { yenText } from '@/shared/format';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';
import { isAdministrator, useMe } from '@/shared/queries';
import { ConstituentsField } from './constituents-field';
import {
  constituentsOf,
  feePpmOf,
  formFieldOf,
  percentInputOf,
  publishBodyOf,
  type ConstituentRow,
  type PublishValues,
} from './portfolio';

const productsQuery = queryOptions({
  queryKey: ['console-products'],
  staleTime: 0,
  queryFn: () => api.request({ path: '/products', schema: ZProductList }),
});

/** Puts a refusal on the form: a validation failure's issues on their fields, anything else in `setError`. */
function showRefusal(form: FormInstance, error: unknown, setError: (text: string) => void) {
  const issues = fieldIssuesOf(error);
  if (issues.length > 0) {
    form.setFields(issues.map((i) => ({ name: formFieldOf(i.field), errors: [i.message] })));
    return;
  }
  setError(error instanceof Error ? error.message : String(error));
}

/** An amount in yen as typed (up to two decimals), greater than zero. */
const yenRule = {
  validator: async (_: unknown, value: string | undefined) => {
    const amount = parseYenInput(value ?? '');
    if (amount === null || amount <= 0) throw new Error(tContract('validation.productPositive'));
  },
};

/** The annual fee in percent, up to four decimals, between 0% and 5% (the server's bound). */
const feeRule = {
  validator: async (_: unknown, value: string | undefined) => {
    const ppm = feePpmOf(value);
    if (ppm === null || ppm > 50_000) throw new Error(tContract('validation.productFee'));
  },
};

const required = () => ({ required: true, whitespace: true, message: tContract('validation.productText') });

const feeText = (ppm: number) => `${percentInputOf(ppm, 4)}%`;

/**
 * /products (issue 17, ADR 0027): the follow-up products with their status, latest NAV and size; for
 * administrators, publishing a product (a model portfolio of the universe, weights summing to 100%) and a
 * new audited version of its portfolio and fee, which every holder is told about. Nothing here enters a NAV
 * or a holder's earnings: the server strikes them from prices.
 */
export function ProductsPage() {
  const { t, locale } = useLocale();
  const me = useMe();
  const admin = isAdministrator(me.data);
  const list = useQuery(productsQuery);
  const [versioning, setVersioning] = useState<TProduct | null>(null);
  const columns: ColumnsType<TProduct> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    {
      title: t('products.name'),
      render: (_, p) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{p.name}</Typography.Text>
          <Typography.Text type="secondary">{p.issuer}</Typography.Text>
        </Space>
      ),
    },
    { title: t('products.version'), dataIndex: 'version', width: 70 },
    {
      title: t('products.status'),
      render: (_, p) => (
        <Tag color={p.status === 'open' ? 'green' : 'default'}>{t(`products.statuses.${p.status}`)}</Tag>
      ),
    },
    {
      title: t('products.nav'),
      render: (_, p) => (
        <Space direction="vertical" size={0}>
          <span>{yenText(p.nav, locale)}</span>
          <Typography.Text type="secondary">{p.nav_date}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('products.size'),
      render: (_, p) => `${yenText(p.fund_size, locale)} / ${yenText(p.fund_cap, locale)}`,
    },
    { title: t('products.deadline'), dataIndex: 'deadline' },
    { title: t('products.minInvestment'), render: (_, p) => yenText(p.min_investment, locale) },
    { title: t('products.fee'), render: (_, p) => feeText(p.management_rate_ppm) },
    {
      title: t('products.constituents'),
      render: (_, p) => p.constituents.map((c) => `${c.code} ${percentInputOf(c.weight_bp, 2)}%`).join(', '),
    },
    {
      title: '',
      render: (_, p) =>
        admin ? (
          <Button
            size="small"
            onClick={() => {
              setVersioning(p);
            }}
          >
            {t('products.newVersion')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={3}>{t('products.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('products.rule')}</Typography.Paragraph>
      <Table<TProduct>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: true }}
      />
      {admin && <PublishForm />}
      {versioning !== null && (
        <VersionModal
          product={versioning}
          onClose={() => {
            setVersioning(null);
          }}
        />
      )}
    </Space>
  );
}

type PublishFormValues = Omit<PublishValues, 'deadline'> & { deadline: Dayjs | null };

/** Publishing a product (administrators): every field of the contract, the weights checked as typed. */
export function PublishForm() {
  const { t } = useLocale();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<PublishFormValues>();
  const [error, setError] = useState<string | null>(null);
  const publish = useMutation({
    mutationFn: (values: PublishFormValues) =>
      api.request({
        path: '/products',
        body: publishBodyOf({ ...values, deadline: values.deadline?.format('YYYY-MM-DD') ?? '' }),
        schema: ZProductDetail,
        notify: false,
      }),
    onSuccess: (product) => {
      form.resetFields();
      setError(null);
      void client.invalidateQueries({ queryKey: productsQuery.queryKey });
      void message.success(t('products.published', { name: product.name }));
    },
    onError: (e) => {
      showRefusal(form, e, setError);
    },
  });
  return (
    <Card title={t('products.publishTitle')}>
      <Form<PublishFormValues>
        form={form}
        layout="vertical"
        name="product-publish"
        initialValues={{ constituents: [{ code: null, weight: '' }] }}
        onFinish={(values) => {
          setError(null);
          publish.mutate(values);
        }}
      >
        <Space wrap align="start">
          <Form.Item name="issuer" label={t('products.issuer')} rules={[required()]}>
            <Input maxLength={60} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item name="name" label={t('products.name')} rules={[required()]}>
            <Input maxLength={80} style={{ width: 320 }} />
          </Form.Item>
        </Space>
        <Form.Item name="strategy" label={t('products.strategy')} rules={[required()]}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
        <ConstituentsField form={form} />
        <Space wrap align="start">
          <Form.Item name="fund_cap" label={t('products.fundCap')} required rules={[yenRule]}>
            <Input inputMode="decimal" style={{ width: 200 }} />
          </Form.Item>
          <Form.Item
            name="deadline"
            label={t('products.deadline')}
            rules={[{ required: true, message: tContract('validation.dateFormat') }]}
          >
            <DatePicker format="YYYY-MM-DD" />
          </Form.Item>
          <Form.Item name="min_investment" label={t('products.minInvestmentYen')} required rules={[yenRule]}>
            <Input inputMode="decimal" style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="fee_percent" label={t('products.feePercent')} required rules={[feeRule]}>
            <Input inputMode="decimal" suffix="%" style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <Form.Item name="risk_disclosure" label={t('products.risk')} rules={[required()]}>
          <Input.TextArea rows={4} maxLength={4000} />
        </Form.Item>
        {error !== null && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" loading={publish.isPending} data-testid="product-publish">
          {t('products.publish')}
        </Button>
      </Form>
    </Card>
  );
}

interface VersionValues {
  constituents: ConstituentRow[];
  fee_percent: string;
  reason: string;
}

/** A new version of a product's portfolio and fee (administrators): audited, and every holder is told. */
export function VersionModal({ product, onClose }: { product: TProduct; onClose: () => void }) {
  const { t } = useLocale();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<VersionValues>();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (v: VersionValues) =>
      api.request({
        path: `/products/${String(product.id)}/versions`,
        body: {
          constituents: constituentsOf(v.constituents),
          management_rate_ppm: feePpmOf(v.fee_percent) ?? 0,
          reason: v.reason,
        } satisfies TProductVersionBody,
        schema: z.object({ version: z.number().int() }),
        notify: false,
      }),
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: productsQuery.queryKey });
      void message.success(t('products.versionSaved', { version: answer.version }));
      onClose();
    },
    onError: (e) => {
      showRefusal(form, e, setError);
    },
  });
  return (
    <Modal
      open
      width={760}
      title={t('products.versionTitle', { name: product.name })}
      onCancel={onClose}
      footer={null}
    >
      <Alert type="info" showIcon message={t('products.versionNotice')} style={{ marginBottom: 16 }} />
      <Form<VersionValues>
        form={form}
        layout="vertical"
        name="product-version"
        initialValues={{
          constituents: product.constituents.map((c) => ({
            code: c.code,
            weight: percentInputOf(c.weight_bp, 2),
          })),
          fee_percent: percentInputOf(product.management_rate_ppm, 4),
          reason: '',
        }}
        onFinish={(v) => {
          setError(null);
          save.mutate(v);
        }}
      >
        <ConstituentsField form={form} known={product.constituents} />
        <Form.Item name="fee_percent" label={t('products.feePercent')} required rules={[feeRule]}>
          <Input inputMode="decimal" suffix="%" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="reason" label={t('products.reason')} rules={[required()]}>
          <Input.TextArea rows={2} maxLength={400} />
        </Form.Item>
        {error !== null && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        <Space>
          <Button
            type="primary"
            htmlType="submit"
            loading={save.isPending}
            data-testid="product-version-save"
          >
            {t('products.saveVersion')}
          </Button>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Modal>
  );
}
