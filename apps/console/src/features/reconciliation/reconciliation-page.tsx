import {
  ZBankTransferPage,
  ZCreditMatchedResult,
  ZStatementImportResult,
  ZStatementLine,
  ZTransferToDeposit,
  type TBankTransfer,
  type TStatementLine,
} from '@kabuto/contract';
import { UploadOutlined } from '@ant-design/icons';
import { isApiError } from '@kabuto/client/api-error';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { z } from 'zod';
import { api } from '@/shared/client';
import { checkForm } from '@/shared/forms';
import { dateTimeText, yenText } from '@/shared/format';
import { useLocale } from '@/shared/locale';

const PAGE_SIZE = 100;
type Status = TBankTransfer['status'];

const transfersQuery = (status: Status) =>
  queryOptions({
    queryKey: ['reconciliation', 'transfers', status],
    staleTime: 0,
    queryFn: () =>
      api.request({
        path: '/reconciliation/transfers',
        query: { status, limit: PAGE_SIZE, offset: 0 },
        schema: ZBankTransferPage,
      }),
  });

/** The file's bytes as base64, for the JSON body. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** What a refused import says about each line (STATEMENT_LINES_INVALID's data). */
const ZRefusedLines = z.object({ lines: z.array(ZStatementLine) });

/**
 * Deposit reconciliation (ADR 0023): import the bank's statement of incoming transfers, read what happened
 * to each line, credit the matched transfers' deposits, and look at the unmatched ones (a deposit can be
 * made from a transfer to a known customer's account, with a reason). Nothing here sets an amount: amounts
 * come from the bank's file and credits go through the deposit review.
 */
export function ReconciliationPage() {
  const { t, locale } = useLocale();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [report, setReport] = useState<{ lines: TStatementLine[]; refused: string | null } | null>(null);
  const [making, setMaking] = useState<TBankTransfer | null>(null);
  const [form] = Form.useForm<{ reason?: string }>();
  const matched = useQuery(transfersQuery('matched'));
  const unmatched = useQuery(transfersQuery('unmatched'));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reconciliation'] });

  const upload = useMutation({
    mutationFn: async (file: File) =>
      api.request({
        path: '/reconciliation/statements',
        body: { filename: file.name, content_base64: await base64Of(file) },
        schema: ZStatementImportResult,
        notify: false,
      }),
    onSuccess: (result) => {
      setReport({ lines: result.lines, refused: null });
      void refresh();
    },
    onError: (error) => {
      const lines = isApiError(error) ? ZRefusedLines.safeParse(error.data) : null;
      setReport({ lines: lines?.success === true ? lines.data.lines : [], refused: error.message });
    },
  });
  const credit = useMutation({
    mutationFn: (ids: number[]) =>
      api.request({
        path: '/reconciliation/credit',
        body: { transfer_ids: ids },
        schema: ZCreditMatchedResult,
      }),
    onSuccess: (result) => {
      const done = result.items.filter((i) => i.outcome === 'credited').length;
      void message.success(t('reconciliation.credited', { count: done }));
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['queue', 'deposits'] });
    },
  });
  const makeDeposit = useMutation({
    mutationFn: (input: { id: number; reason: string }) =>
      api.request({
        path: `/reconciliation/transfers/${input.id}/deposit`,
        body: { reason: input.reason },
        schema: z.object({ deposit_id: z.number() }),
        notify: false,
      }),
    onSuccess: () => {
      setMaking(null);
      form.resetFields();
      void refresh();
    },
  });

  const lineColumns: ColumnsType<TStatementLine> = [
    { title: t('reconciliation.line'), dataIndex: 'line', key: 'line', width: 80 },
    { title: t('reconciliation.bankRef'), dataIndex: 'bank_ref', key: 'ref' },
    {
      title: t('reconciliation.amount'),
      key: 'amount',
      align: 'right',
      render: (_, l) => (l.amount === null ? '' : yenText(l.amount, locale)),
    },
    {
      title: t('reconciliation.outcome'),
      key: 'outcome',
      render: (_, l) => (
        <Tag
          color={{ matched: 'green', unmatched: 'orange', duplicate: 'default', invalid: 'red' }[l.outcome]}
        >
          {t(`reconciliation.outcomes.${l.outcome}`)}
          {l.error === null ? '' : `: ${t(`reconciliation.errors.${l.error}`)}`}
        </Tag>
      ),
    },
    { title: t('reconciliation.user'), key: 'user', render: (_, l) => l.user_id ?? '' },
    { title: t('reconciliation.deposit'), key: 'deposit', render: (_, l) => l.deposit_id ?? '' },
  ];
  const transferColumns: ColumnsType<TBankTransfer> = [
    { title: t('reconciliation.bankRef'), dataIndex: 'bank_ref', key: 'ref' },
    { title: t('reconciliation.transferDate'), dataIndex: 'transfer_date', key: 'date' },
    {
      title: t('reconciliation.amount'),
      key: 'amount',
      align: 'right',
      render: (_, r) => yenText(r.amount, locale),
    },
    {
      title: t('reconciliation.payer'),
      key: 'payer',
      render: (_, r) => (
        <Space>
          {r.payer_name}
          {r.payer_is_customer === false && <Tag color="orange">{t('reconciliation.thirdParty')}</Tag>}
        </Space>
      ),
    },
    { title: t('reconciliation.virtualAccount'), dataIndex: 'virtual_account', key: 'va' },
    {
      title: t('reconciliation.user'),
      key: 'user',
      render: (_, r) =>
        r.user_id === null ? t('reconciliation.unknownAccount') : `${r.user_id} · ${r.phone ?? ''}`,
    },
    {
      title: t('reconciliation.importedAt'),
      key: 'at',
      render: (_, r) => dateTimeText(r.created_at, locale),
    },
  ];

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('reconciliation.title')}</Typography.Title>
      <Card title={t('reconciliation.importTitle')}>
        <Typography.Paragraph>{t('reconciliation.importHelp')}</Typography.Paragraph>
        <label className="ant-btn ant-btn-primary" style={{ cursor: 'pointer' }}>
          <UploadOutlined /> {t('reconciliation.chooseFile')}
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label={t('reconciliation.chooseFile')}
            data-testid="statement-file"
            style={{ display: 'none' }}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate(file);
              e.target.value = '';
            }}
          />
        </label>
        {report !== null && (
          <div style={{ marginTop: 16 }} data-testid="import-report">
            {report.refused === null ? (
              <Alert type="success" showIcon message={t('reconciliation.importDone')} />
            ) : (
              <Alert type="error" role="alert" showIcon message={report.refused} />
            )}
            <Table
              rowKey="line"
              size="small"
              style={{ marginTop: 12 }}
              columns={lineColumns}
              dataSource={report.lines}
              pagination={false}
            />
          </div>
        )}
      </Card>
      <Card
        title={t('reconciliation.matchedTitle')}
        extra={
          <Button
            type="primary"
            disabled={(matched.data?.items.length ?? 0) === 0}
            loading={credit.isPending}
            onClick={() => {
              credit.mutate((matched.data?.items ?? []).map((i) => i.id));
            }}
          >
            {t('reconciliation.creditAll')}
          </Button>
        }
      >
        <Table
          rowKey="id"
          size="small"
          data-testid="matched-transfers"
          loading={matched.isPending}
          columns={[
            ...transferColumns,
            {
              title: '',
              key: 'credit',
              render: (_, r) => (
                <Button
                  size="small"
                  onClick={() => {
                    credit.mutate([r.id]);
                  }}
                >
                  {t('reconciliation.credit')}
                </Button>
              ),
            },
          ]}
          dataSource={matched.data?.items ?? []}
          pagination={false}
        />
      </Card>
      <Card title={t('reconciliation.unmatchedTitle')}>
        <Table
          rowKey="id"
          size="small"
          data-testid="unmatched-transfers"
          loading={unmatched.isPending}
          columns={[
            ...transferColumns,
            {
              title: '',
              key: 'deposit',
              render: (_, r) =>
                r.user_id === null ? null : (
                  <Button
                    size="small"
                    onClick={() => {
                      setMaking(r);
                    }}
                  >
                    {t('reconciliation.makeDeposit')}
                  </Button>
                ),
            },
          ]}
          dataSource={unmatched.data?.items ?? []}
          pagination={false}
        />
      </Card>
      <Modal
        open={making !== null}
        title={t('reconciliation.makeDepositTitle')}
        okText={t('reconciliation.makeDeposit')}
        cancelText={t('common.cancel')}
        confirmLoading={makeDeposit.isPending}
        onOk={() => {
          const body = checkForm(
            form,
            ZTransferToDeposit,
            { reason: form.getFieldsValue().reason ?? '' },
            { reason: t('review.reasonLabel') },
          );
          if (body !== null && making !== null) makeDeposit.mutate({ id: making.id, reason: body.reason });
        }}
        onCancel={() => {
          setMaking(null);
        }}
        destroyOnHidden
      >
        {makeDeposit.isError && (
          <Alert type="error" role="alert" showIcon message={makeDeposit.error.message} />
        )}
        {making !== null && (
          <Typography.Paragraph>
            {t('reconciliation.makeDepositHelp', {
              amount: yenText(making.amount, locale),
              user: making.user_id ?? '',
            })}
          </Typography.Paragraph>
        )}
        <Form form={form} name="transfer-deposit" layout="vertical" requiredMark={false}>
          <Form.Item label={t('review.reasonLabel')} name="reason">
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
