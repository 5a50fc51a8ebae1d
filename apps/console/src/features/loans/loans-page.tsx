import {
  LOAN_REJECT_REASONS,
  LOAN_STATUSES,
  ZLoanOutcome,
  ZLoanProduct,
  ZLoanProductPage,
  ZLoanReviewPage,
  type LoanStatus,
  type TLoanProduct,
  type TLoanReview,
} from '@kabuto/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { api } from '@/shared/client';
import { dateTimeText, yenText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { isAdministrator, useMe } from '@/shared/queries';

const percentText = (bp: number | null) => (bp === null ? '—' : `${(bp / 100).toFixed(2)}%`);

const queueQuery = (status: LoanStatus | undefined) =>
  queryOptions({
    queryKey: ['loans', 'queue', status ?? 'all'],
    staleTime: 0,
    queryFn: () =>
      api.request({ path: '/loans', query: { status, limit: 100, offset: 0 }, schema: ZLoanReviewPage }),
  });
const productsQuery = queryOptions({
  queryKey: ['loans', 'products'],
  queryFn: () => api.request({ path: '/loans/products', schema: ZLoanProductPage }),
});

/**
 * Credit loans (issue 18, ADR 0028): the review queue (approve with the amount and the customer's limit,
 * four-eyes above the policy's amount; reject with a listed reason and free text) and the loan products
 * (administrators). The legal caps are the server's: a product or approval above them is refused there.
 */
export function LoansPage() {
  const { t, locale } = useLocale();
  const [status, setStatus] = useState<LoanStatus | undefined>('pending');
  const [open, setOpen] = useState<TLoanReview | null>(null);
  const queue = useQuery(queueQuery(status));
  const columns: ColumnsType<TLoanReview> = [
    { title: t('loans.id'), dataIndex: 'id' },
    { title: t('loans.user'), render: (_, r) => `${r.user_id} ${r.full_name}` },
    { title: t('loans.requested'), render: (_, r) => yenText(r.amount, locale) },
    { title: t('loans.statusLabel'), render: (_, r) => <Tag>{t(`loans.status.${r.status}`)}</Tag> },
    { title: t('loans.appliedAt'), render: (_, r) => dateTimeText(r.applied_at, locale) },
    {
      title: '',
      render: (_, r) => (
        <Button
          size="small"
          onClick={() => {
            setOpen(r);
          }}
        >
          {t('loans.open')}
        </Button>
      ),
    },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Card
        title={t('loans.title')}
        extra={
          <Select
            aria-label={t('loans.statusLabel')}
            style={{ width: 220 }}
            allowClear
            value={status}
            onChange={(v: LoanStatus | undefined) => {
              setStatus(v);
            }}
            options={LOAN_STATUSES.map((s) => ({ value: s, label: t(`loans.status.${s}`) }))}
          />
        }
      >
        <Table
          rowKey="id"
          size="small"
          loading={queue.isLoading}
          dataSource={queue.data?.items ?? []}
          columns={columns}
          pagination={false}
        />
      </Card>
      <Products />
      {open !== null && (
        <Decision
          loan={open}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
    </Space>
  );
}

function Decision({ loan, onClose }: { loan: TLoanReview; onClose: () => void }) {
  const { t, locale } = useLocale();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [approveForm] = Form.useForm<{ amount_yen: number; limit_yen: number }>();
  const [rejectForm] = Form.useForm<{ reason_code: string; reason: string }>();
  const done = (status: LoanStatus) => {
    void message.success(t(`loans.status.${status}`));
    void client.invalidateQueries({ queryKey: ['loans'] });
    onClose();
  };
  const approve = useMutation({
    mutationFn: (v: { amount_yen: number; limit_yen: number }) =>
      api.request({
        path: `/loans/${loan.id}/approve`,
        body: { amount: v.amount_yen * 100, limit_yen: v.limit_yen },
        schema: ZLoanOutcome,
      }),
    onSuccess: (r) => {
      done(r.status);
    },
  });
  const reject = useMutation({
    mutationFn: (v: { reason_code: string; reason: string }) =>
      api.request({ path: `/loans/${loan.id}/reject`, body: v, schema: ZLoanOutcome }),
    onSuccess: (r) => {
      done(r.status);
    },
  });
  const decidable = loan.status === 'pending' || loan.status === 'disbursing';
  return (
    <Modal open title={`${t('loans.title')} #${loan.id}`} onCancel={onClose} footer={null} width={720}>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('loans.statusLabel')}>
          {t(`loans.status.${loan.status}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.requested')}>{yenText(loan.amount, locale)}</Descriptions.Item>
        <Descriptions.Item label={t('loans.fullName')}>{loan.full_name}</Descriptions.Item>
        <Descriptions.Item label={t('loans.verifiedName')}>{loan.verified_name ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('loans.idNumber')}>{loan.id_number}</Descriptions.Item>
        <Descriptions.Item label={t('loans.phone')}>{loan.contact_phone}</Descriptions.Item>
        <Descriptions.Item label={t('loans.address')}>{loan.address}</Descriptions.Item>
        <Descriptions.Item label={t('loans.email')}>{loan.email}</Descriptions.Item>
        <Descriptions.Item label={t('loans.income')}>{yenText(loan.annual_income, locale)}</Descriptions.Item>
        <Descriptions.Item label={t('loans.otherBorrowing')}>
          {yenText(loan.other_borrowing, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.owedHere')}>
          {yenText(loan.outstanding_elsewhere_here, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.room')}>
          {yenText(loan.total_volume_room, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.limit')}>{yenText(loan.limit, locale)}</Descriptions.Item>
        <Descriptions.Item label={t('loans.product')}>{loan.product_name ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('loans.toRepay')}>
          {yenText(loan.amount_to_repay, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.rate')}>{percentText(loan.rate_bp)}</Descriptions.Item>
        {loan.reject_reason !== null && (
          <Descriptions.Item label={t('loans.rejectReason')} span={2}>
            {loan.reject_reason}
          </Descriptions.Item>
        )}
        {loan.first_approved_by !== null && (
          <Descriptions.Item label={t('loans.firstApprover')} span={2}>
            {loan.first_approved_by}
          </Descriptions.Item>
        )}
      </Descriptions>
      {decidable && (
        <Space direction="vertical" style={{ width: '100%', marginTop: 16 }}>
          <Form
            form={approveForm}
            layout="inline"
            name="loan-approve"
            initialValues={{ amount_yen: loan.amount / 100, limit_yen: loan.limit / 100 }}
            onFinish={(v) => {
              approve.mutate(v);
            }}
          >
            <Form.Item name="amount_yen" label={t('loans.approveAmount')} rules={[{ required: true }]}>
              <InputNumber min={1} precision={0} style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="limit_yen" label={t('loans.limit')} rules={[{ required: true }]}>
              <InputNumber min={1} precision={0} style={{ width: 160 }} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={approve.isPending} data-testid="loan-approve">
              {loan.status === 'disbursing' ? t('loans.approveSecond') : t('loans.approve')}
            </Button>
          </Form>
          <Form
            form={rejectForm}
            layout="inline"
            name="loan-reject"
            onFinish={(v) => {
              reject.mutate(v);
            }}
          >
            <Form.Item name="reason_code" label={t('loans.reasonCode')} rules={[{ required: true }]}>
              <Select
                style={{ width: 220 }}
                options={LOAN_REJECT_REASONS.map((r) => ({
                  value: r,
                  label: t(`loans.rejectReasons.${r}`, { ns: 'contract' }),
                }))}
              />
            </Form.Item>
            <Form.Item name="reason" label={t('loans.reason')} rules={[{ required: true }]}>
              <Input style={{ width: 240 }} maxLength={500} />
            </Form.Item>
            <Button danger htmlType="submit" loading={reject.isPending} data-testid="loan-reject">
              {t('loans.reject')}
            </Button>
          </Form>
        </Space>
      )}
    </Modal>
  );
}

function Products() {
  const { t, locale } = useLocale();
  const client = useQueryClient();
  const me = useMe();
  const admin = isAdministrator(me.data);
  const products = useQuery(productsQuery);
  const [form] = Form.useForm<{
    name: string;
    rate_bp: number;
    late_rate_bp: number;
    term_days: number;
    min_yen: number;
    max_yen: number;
  }>();
  const create = useMutation({
    mutationFn: (v: Record<string, unknown>) =>
      api.request({ path: '/loans/products', body: v, schema: ZLoanProduct }),
    onSuccess: () => {
      form.resetFields();
      void client.invalidateQueries({ queryKey: ['loans', 'products'] });
    },
  });
  const retire = useMutation({
    mutationFn: (id: number) =>
      api.request({ path: `/loans/products/${id}/retire`, body: {}, schema: ZLoanProduct }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['loans', 'products'] }),
  });
  const columns: ColumnsType<TLoanProduct> = [
    { title: t('loans.productName'), dataIndex: 'name' },
    { title: t('loans.rate'), render: (_, p) => percentText(p.rate_bp) },
    { title: t('loans.lateRate'), render: (_, p) => percentText(p.late_rate_bp) },
    { title: t('loans.termDays'), dataIndex: 'term_days' },
    {
      title: t('loans.range'),
      render: (_, p) => `${yenText(p.min_yen * 100, locale)} – ${yenText(p.max_yen * 100, locale)}`,
    },
    { title: t('loans.active'), render: (_, p) => (p.active ? t('loans.yes') : t('loans.no')) },
    {
      title: '',
      render: (_, p) =>
        admin && p.active ? (
          <Button
            size="small"
            onClick={() => {
              retire.mutate(p.id);
            }}
          >
            {t('loans.retire')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Card title={t('loans.products')}>
      <Table
        rowKey="id"
        size="small"
        dataSource={products.data?.items ?? []}
        columns={columns}
        pagination={false}
      />
      {admin && (
        <Form
          form={form}
          layout="inline"
          name="loan-product"
          style={{ marginTop: 16 }}
          onFinish={(v) => {
            create.mutate(v);
          }}
        >
          <Form.Item name="name" label={t('loans.productName')} rules={[{ required: true }]}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="rate_bp" label={t('loans.rateBp')} rules={[{ required: true }]}>
            <InputNumber min={0} precision={0} />
          </Form.Item>
          <Form.Item name="late_rate_bp" label={t('loans.lateRateBp')} rules={[{ required: true }]}>
            <InputNumber min={0} precision={0} />
          </Form.Item>
          <Form.Item name="term_days" label={t('loans.termDays')} rules={[{ required: true }]}>
            <InputNumber min={1} max={365} precision={0} />
          </Form.Item>
          <Form.Item name="min_yen" label={t('loans.minYen')} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} />
          </Form.Item>
          <Form.Item name="max_yen" label={t('loans.maxYen')} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} />
          </Form.Item>
          <Button htmlType="submit" loading={create.isPending}>
            {t('loans.createProduct')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
