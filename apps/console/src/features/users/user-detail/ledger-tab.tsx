import { LEDGER_ENTRY_KINDS, type TLedgerLine } from '@kabuto/contract';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { dateTimeText, yenText } from '@/shared/format';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';
import { downloadStatement, ledgerQuery, type LedgerFilter } from '../users-api';

const LEDGER_PAGE = 50;

export function LedgerTab({ userId }: { userId: number }) {
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
