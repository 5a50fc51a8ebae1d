import {
  LEDGER_ENTRY_KINDS,
  type TConsoleUser,
  type TLedgerLine,
  type TMessage,
  type TOrder,
  type TPosition,
} from '@kabuto/contract';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  Form,
  Result,
  Row,
  Segmented,
  Select,
  Space,
  Spin,
  Statistic,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useParams } from 'react-router';
import { AuditTable, type AuditFilter } from '@/shared/audit-table';
import { AuthImage } from '@/shared/auth-image';
import { dateTimeText, yenText } from '@/shared/format';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';
import { StatusTag } from '@/shared/status-tag';
import {
  downloadStatement,
  ledgerQuery,
  ordersQuery,
  positionsQuery,
  userQuery,
  type LedgerFilter,
} from './users-api';

type TFn = ReturnType<typeof useLocale>['t'];
type Locale = ReturnType<typeof useLocale>['locale'];

const MONEY_PARAMS = new Set(['amount', 'price', 'needed', 'available', 'min', 'm']);
const TIME_PARAMS = new Set(['process_after', 'deadline', 'until']);

/** A message as the user reads it: its kind's catalogue text with the params filled in. */
function messageText(message: TMessage, locale: Locale): string {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(message.params)) {
    if (MONEY_PARAMS.has(key) && typeof value === 'number' && Number.isSafeInteger(value)) {
      params[key] = yenText(value, locale);
    } else if (TIME_PARAMS.has(key) && typeof value === 'string') {
      params[key] = dateTimeText(value, locale);
    } else {
      params[key] =
        typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
    }
  }
  const key = `messageKinds.${message.kind}`;
  const text = tContract(key, params);
  const base = text === key ? message.kind : text;
  return typeof message.params.reason === 'string' ? `${base} (${message.params.reason})` : base;
}

function ProfileTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  const balances = ['cash', 'reserved', 'margin', 'withdrawing'] as const;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions bordered size="small" column={2}>
        <Descriptions.Item label={t('users.userId')}>{user.user_id}</Descriptions.Item>
        <Descriptions.Item label={t('users.phone')}>{user.phone}</Descriptions.Item>
        <Descriptions.Item label={t('users.fullName')}>
          {user.full_name ?? t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('users.realName')}>
          <StatusTag status={user.real_name_status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('user.invitationCode')}>{user.invitation_code}</Descriptions.Item>
        <Descriptions.Item label={t('user.invitedBy')}>{user.invited_by_code}</Descriptions.Item>
        <Descriptions.Item label={t('users.createdAt')}>
          {dateTimeText(user.created_at, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('user.lockedUntil')}>
          {user.locked_until === null ? t('user.notLocked') : dateTimeText(user.locked_until, locale)}
        </Descriptions.Item>
      </Descriptions>
      <Card title={t('user.balances')} size="small">
        <Row gutter={16}>
          {balances.map((account) => (
            <Col span={6} key={account}>
              <Statistic
                title={tContract(`accounts.${account}`)}
                value={yenText(user.balances[account], locale)}
              />
            </Col>
          ))}
        </Row>
      </Card>
    </Space>
  );
}

function VerificationTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  const identity = user.identity;
  if (identity === null) return <Empty description={t('user.notSubmitted')} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Descriptions bordered size="small" column={2}>
        <Descriptions.Item label={t('identity.fullName')}>{identity.full_name}</Descriptions.Item>
        <Descriptions.Item label={t('identity.idNumber')}>{identity.id_number}</Descriptions.Item>
        <Descriptions.Item label={t('queue.status')}>
          <StatusTag status={identity.status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('queue.submittedAt')}>
          {dateTimeText(identity.created_at, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t('queue.reviewedBy')}>
          {identity.reviewed_by ?? t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('queue.reason')}>{identity.reason ?? t('common.none')}</Descriptions.Item>
      </Descriptions>
      <Row gutter={16}>
        <Col span={12}>
          <Typography.Text strong>{t('identity.front')}</Typography.Text>
          <AuthImage
            uploadId={identity.front_upload_id}
            alt={t('identity.photoAlt', { side: t('identity.front'), user: user.user_id })}
          />
        </Col>
        <Col span={12}>
          <Typography.Text strong>{t('identity.back')}</Typography.Text>
          <AuthImage
            uploadId={identity.back_upload_id}
            alt={t('identity.photoAlt', { side: t('identity.back'), user: user.user_id })}
          />
        </Col>
      </Row>
    </Space>
  );
}

function BankTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={user.bank_accounts}
        columns={[
          { title: t('queue.id'), dataIndex: 'id', key: 'id' },
          { title: t('bank.holder'), dataIndex: 'holder_name', key: 'holder' },
          { title: t('bank.bankName'), dataIndex: 'bank_name', key: 'bank' },
          {
            title: t('bank.branchName'),
            key: 'branch',
            render: (_, b) => `${b.branch_name} (${b.branch_number})`,
          },
          { title: t('bank.accountNumber'), dataIndex: 'account_number', key: 'number' },
          { title: t('queue.status'), key: 'status', render: (_, b) => <StatusTag status={b.status} /> },
          { title: t('queue.reason'), key: 'reason', render: (_, b) => b.reason ?? t('common.none') },
          { title: t('queue.submittedAt'), key: 'at', render: (_, b) => dateTimeText(b.created_at, locale) },
        ]}
      />
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('user.bankLog')}
      </Typography.Title>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={user.bank_account_log}
        columns={[
          { title: t('user.at'), key: 'at', render: (_, l) => dateTimeText(l.at, locale) },
          { title: t('bank.logAction'), key: 'action', render: (_, l) => t(`bank.logActions.${l.action}`) },
          { title: t('bank.holder'), dataIndex: 'holder_name', key: 'holder' },
          { title: t('bank.bankName'), key: 'bank', render: (_, l) => `${l.bank_name} ${l.branch_name}` },
          { title: t('bank.accountNumber'), dataIndex: 'account_number', key: 'number' },
          { title: t('queue.reason'), key: 'reason', render: (_, l) => l.reason ?? t('common.none') },
        ]}
      />
    </Space>
  );
}

function DepositsTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Table
      rowKey="id"
      size="small"
      dataSource={user.deposits}
      columns={[
        { title: t('queue.id'), dataIndex: 'id', key: 'id' },
        {
          title: t('deposit.amount'),
          key: 'amount',
          align: 'right',
          render: (_, d) => yenText(d.amount, locale),
        },
        { title: t('deposit.transferDate'), dataIndex: 'transfer_date', key: 'date' },
        { title: t('queue.status'), key: 'status', render: (_, d) => <StatusTag status={d.status} /> },
        { title: t('queue.reason'), key: 'reason', render: (_, d) => d.reason ?? t('common.none') },
        { title: t('queue.submittedAt'), key: 'at', render: (_, d) => dateTimeText(d.created_at, locale) },
        {
          title: t('queue.reviewedAt'),
          key: 'reviewed',
          render: (_, d) => dateTimeText(d.reviewed_at, locale),
        },
      ]}
    />
  );
}

function WithdrawalsTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Table
      rowKey="id"
      size="small"
      dataSource={user.withdrawals}
      columns={[
        { title: t('queue.id'), dataIndex: 'id', key: 'id' },
        {
          title: t('withdrawal.amount'),
          key: 'amount',
          align: 'right',
          render: (_, w) => yenText(w.amount, locale),
        },
        { title: t('withdrawal.fee'), key: 'fee', align: 'right', render: (_, w) => yenText(w.fee, locale) },
        {
          title: t('withdrawal.bankAccount'),
          key: 'bank',
          render: (_, w) =>
            `${w.bank_account.bank_name} ${w.bank_account.branch_name} ${w.bank_account.account_number}`,
        },
        { title: t('queue.status'), key: 'status', render: (_, w) => <StatusTag status={w.status} /> },
        {
          title: t('withdrawal.processAfter'),
          key: 'after',
          render: (_, w) => dateTimeText(w.process_after, locale),
        },
        { title: t('queue.reason'), key: 'reason', render: (_, w) => w.reason ?? t('common.none') },
      ]}
    />
  );
}

const LEDGER_PAGE = 50;

function LedgerTab({ userId }: { userId: number }) {
  const { t, locale } = useLocale();
  const [filter, setFilter] = useState<LedgerFilter>({ limit: LEDGER_PAGE, offset: 0 });
  const [downloading, setDownloading] = useState(false);
  const queryClient = useQueryClient();
  const query = useQuery(ledgerQuery(userId, filter));
  const columns: ColumnsType<TLedgerLine> = [
    { title: t('user.seq'), dataIndex: 'seq', key: 'seq', width: 70 },
    { title: t('user.at'), key: 'at', render: (_, l) => dateTimeText(l.at, locale) },
    { title: t('user.ledgerKind'), key: 'kind', render: (_, l) => tContract(`ledgerKinds.${l.kind}`) },
    { title: t('user.account'), key: 'account', render: (_, l) => tContract(`accounts.${l.account}`) },
    {
      title: t('user.amount'),
      key: 'amount',
      align: 'right',
      render: (_, l) => (
        <Typography.Text type={l.amount < 0 ? 'danger' : undefined}>
          {yenText(l.amount, locale)}
        </Typography.Text>
      ),
    },
    {
      title: t('user.balance'),
      key: 'balance',
      align: 'right',
      render: (_, l) => yenText(l.balance, locale),
    },
    { title: t('user.memo'), key: 'memo', render: (_, l) => l.memo ?? '' },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Form layout="inline" name="ledger-filter">
          <Form.Item label={t('user.ledgerKind')} htmlFor="ledger-kind">
            <Select
              id="ledger-kind"
              allowClear
              style={{ width: 220 }}
              placeholder={t('common.all')}
              value={filter.kind}
              onChange={(kind?: string) => {
                setFilter((f) => ({ ...f, kind, offset: 0 }));
              }}
              options={LEDGER_ENTRY_KINDS.map((k) => ({ value: k, label: tContract(`ledgerKinds.${k}`) }))}
            />
          </Form.Item>
          <Form.Item label={t('user.ledgerDates')}>
            <DatePicker.RangePicker
              allowEmpty={[true, true]}
              onChange={(dates: [Dayjs | null, Dayjs | null] | null) => {
                setFilter((f) => ({
                  ...f,
                  from: dates?.[0]?.format('YYYY-MM-DD'),
                  to: dates?.[1]?.format('YYYY-MM-DD'),
                  offset: 0,
                }));
              }}
            />
          </Form.Item>
        </Form>
        <Button
          icon={<DownloadOutlined />}
          loading={downloading}
          onClick={() => {
            setDownloading(true);
            downloadStatement(userId)
              // The download is audited: the user's audit trail has a new line.
              .then(() => queryClient.invalidateQueries({ queryKey: ['audit'] }))
              .catch(() => undefined)
              .finally(() => {
                setDownloading(false);
              });
          }}
        >
          {t('user.statement')}
        </Button>
      </Space>
      <Table<TLedgerLine>
        rowKey="seq"
        size="small"
        loading={query.isFetching}
        dataSource={query.data?.items ?? []}
        columns={columns}
        pagination={{
          current: Math.floor(filter.offset / LEDGER_PAGE) + 1,
          pageSize: LEDGER_PAGE,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { count: total }),
          onChange: (page) => {
            setFilter((f) => ({ ...f, offset: (page - 1) * LEDGER_PAGE }));
          },
        }}
      />
    </Space>
  );
}

function orderColumns(t: TFn, locale: Locale): ColumnsType<TOrder> {
  return [
    { title: t('orders.orderNo'), dataIndex: 'order_no', key: 'no' },
    { title: t('orders.stock'), key: 'stock', render: (_, o) => `${o.code} ${o.name}` },
    {
      title: t('orders.side'),
      key: 'side',
      render: (_, o) =>
        `${t(`orders.sides.${o.side}`)} · ${t(`orders.kinds.${o.kind}`)} · ${t(`orders.directions.${o.direction}`)}${o.leverage > 1 ? ` ×${o.leverage}` : ''}`,
    },
    { title: t('orders.priceType'), key: 'type', render: (_, o) => t(`orders.priceTypes.${o.price_type}`) },
    { title: t('orders.venue'), key: 'venue', render: (_, o) => t(`orders.venues.${o.venue}`) },
    { title: t('orders.quantity'), dataIndex: 'quantity', key: 'qty', align: 'right' },
    {
      title: t('orders.limitPrice'),
      key: 'limit',
      align: 'right',
      render: (_, o) => (o.limit_price === null ? t('common.none') : yenText(o.limit_price, locale)),
    },
    {
      title: t('orders.fillPrice'),
      key: 'fill',
      align: 'right',
      render: (_, o) => (o.fill_price === null ? t('common.none') : yenText(o.fill_price, locale)),
    },
    { title: t('orders.total'), key: 'total', align: 'right', render: (_, o) => yenText(o.total, locale) },
    {
      title: t('queue.status'),
      key: 'status',
      render: (_, o) => <Tag>{t(`orders.statuses.${o.status}`)}</Tag>,
    },
    { title: t('orders.createdAt'), key: 'at', render: (_, o) => dateTimeText(o.created_at, locale) },
  ];
}

function OrdersTab({ userId }: { userId: number }) {
  const { t, locale } = useLocale();
  const query = useQuery(ordersQuery(userId));
  return (
    <Table<TOrder>
      rowKey="order_no"
      size="small"
      loading={query.isFetching}
      dataSource={query.data ?? []}
      columns={orderColumns(t, locale)}
    />
  );
}

function PositionsTab({ userId }: { userId: number }) {
  const { t, locale } = useLocale();
  const [status, setStatus] = useState<'holding' | 'closed'>('holding');
  const query = useQuery(positionsQuery(userId, status));
  const columns: ColumnsType<TPosition> = [
    { title: t('positions.stock'), key: 'stock', render: (_, p) => `${p.code} ${p.name}` },
    {
      title: t('positions.direction'),
      key: 'direction',
      render: (_, p) =>
        `${t(`orders.directions.${p.direction}`)}${p.leverage > 1 ? ` ×${p.leverage}` : ''}${p.day_trade ? ` · ${t('positions.dayTrade')}` : ''}`,
    },
    { title: t('positions.quantity'), dataIndex: 'quantity', key: 'qty', align: 'right' },
    {
      title: t('positions.avgPrice'),
      key: 'avg',
      align: 'right',
      render: (_, p) => yenText(p.avg_price, locale),
    },
    {
      title: t('positions.lastPrice'),
      key: 'last',
      align: 'right',
      render: (_, p) => yenText(p.last_price, locale),
    },
    {
      title: t('positions.marketValue'),
      key: 'mv',
      align: 'right',
      render: (_, p) => yenText(p.market_value, locale),
    },
    {
      title: t('positions.floatingPl'),
      key: 'fpl',
      align: 'right',
      render: (_, p) => yenText(p.floating_pl, locale),
    },
    {
      title: t('positions.realizedPl'),
      key: 'rpl',
      align: 'right',
      render: (_, p) => yenText(p.realized_pl, locale),
    },
    {
      title: t('queue.status'),
      key: 'status',
      render: (_, p) => <Tag>{t(`positions.statuses.${p.status}`)}</Tag>,
    },
    { title: t('positions.openedAt'), key: 'opened', render: (_, p) => dateTimeText(p.opened_at, locale) },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Segmented
        aria-label={t('positions.show')}
        value={status}
        onChange={(v) => {
          setStatus(v === 'closed' ? 'closed' : 'holding');
        }}
        options={[
          { value: 'holding', label: t('positions.holding') },
          { value: 'closed', label: t('positions.closed') },
        ]}
      />
      <Table<TPosition>
        rowKey="id"
        size="small"
        loading={query.isFetching}
        dataSource={query.data ?? []}
        columns={columns}
      />
    </Space>
  );
}

function MessagesTab({ user }: { user: TConsoleUser }) {
  const { t, locale } = useLocale();
  return (
    <Table<TMessage>
      rowKey="id"
      size="small"
      dataSource={user.messages}
      columns={[
        { title: t('user.at'), key: 'at', width: 170, render: (_, m) => dateTimeText(m.created_at, locale) },
        { title: t('user.messageText'), key: 'text', render: (_, m) => messageText(m, locale) },
        {
          title: t('user.read'),
          key: 'read',
          width: 100,
          render: (_, m) => (m.read ? t('user.read') : <Tag color="gold">{t('user.unread')}</Tag>),
        },
      ]}
    />
  );
}

const AUDIT_PAGE = 20;

function AuditTab({ userId }: { userId: number }) {
  const [filter, setFilter] = useState<AuditFilter>({ user_id: userId, limit: AUDIT_PAGE, offset: 0 });
  return (
    <AuditTable
      filter={filter}
      pageSize={AUDIT_PAGE}
      onPage={(page) => {
        setFilter((f) => ({ ...f, offset: (page - 1) * AUDIT_PAGE }));
      }}
    />
  );
}

/** Everything about one user, read only: no control here changes a balance or a record. */
export function UserDetailPage() {
  const { t } = useLocale();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useQuery({ ...userQuery(valid ? id : 0), enabled: valid });

  if (!valid) return <Result status="404" title="404" subTitle={t('common.notFound')} />;
  if (query.isPending) return <Spin aria-label={t('common.loading')} />;
  if (query.isError) {
    return (
      <Result
        status="error"
        title={query.error.message}
        extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  const user = query.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('user.title', { id: user.user_id })} · {user.phone}
        {user.full_name !== null && ` · ${user.full_name}`}
      </Typography.Title>
      <Alert type="info" showIcon message={t('user.readOnly')} />
      <Tabs
        items={[
          { key: 'profile', label: t('user.tabs.profile'), children: <ProfileTab user={user} /> },
          {
            key: 'verification',
            label: t('user.tabs.verification'),
            children: <VerificationTab user={user} />,
          },
          { key: 'bank', label: t('user.tabs.bankAccounts'), children: <BankTab user={user} /> },
          { key: 'deposits', label: t('user.tabs.deposits'), children: <DepositsTab user={user} /> },
          { key: 'withdrawals', label: t('user.tabs.withdrawals'), children: <WithdrawalsTab user={user} /> },
          { key: 'ledger', label: t('user.tabs.ledger'), children: <LedgerTab userId={user.user_id} /> },
          { key: 'orders', label: t('user.tabs.orders'), children: <OrdersTab userId={user.user_id} /> },
          {
            key: 'positions',
            label: t('user.tabs.positions'),
            children: <PositionsTab userId={user.user_id} />,
          },
          { key: 'messages', label: t('user.tabs.messages'), children: <MessagesTab user={user} /> },
          { key: 'audit', label: t('user.tabs.audit'), children: <AuditTab userId={user.user_id} /> },
        ]}
      />
    </Space>
  );
}
