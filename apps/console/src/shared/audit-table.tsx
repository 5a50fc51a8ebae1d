import { ZAuditPage, type TAuditEntry } from '@kabuto/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { Col, Row, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { api } from './client';
import { dateTimeText } from './format';
import { diffJson, prettyJson } from './json-diff';
import { useLocale } from './locale';

export interface AuditFilter {
  operator_id?: number;
  action?: string;
  target_type?: string;
  target_id?: string;
  user_id?: number;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** GET /api/console/audit */
export const auditQuery = (filter: AuditFilter) =>
  queryOptions({
    queryKey: ['audit', filter],
    queryFn: () => api.request({ path: '/audit', query: { ...filter }, schema: ZAuditPage }),
    placeholderData: keepPreviousData,
  });

const KIND_COLORS = { added: 'green', removed: 'red', changed: 'blue' } as const;

/** An entry's before and after side by side, and the list of changed fields. */
export function AuditDiff({ entry }: { entry: TAuditEntry }) {
  const { t } = useLocale();
  const lines = diffJson(entry.before, entry.after);
  return (
    <div>
      <Row gutter={16}>
        <Col span={12}>
          <Typography.Text strong>{t('audit.before')}</Typography.Text>
          <pre className="console-json" aria-label={t('audit.before')}>
            {prettyJson(entry.before)}
          </pre>
        </Col>
        <Col span={12}>
          <Typography.Text strong>{t('audit.after')}</Typography.Text>
          <pre className="console-json" aria-label={t('audit.after')}>
            {prettyJson(entry.after)}
          </pre>
        </Col>
      </Row>
      <Typography.Text strong>{t('audit.changes')}</Typography.Text>
      {lines.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('audit.noChanges')}</Typography.Paragraph>
      ) : (
        <Table
          size="small"
          pagination={false}
          rowKey={(l) => `${l.kind}:${l.path}`}
          dataSource={lines}
          columns={[
            {
              title: t('audit.path'),
              key: 'path',
              render: (_, l) => <code>{l.path === '' ? '—' : l.path}</code>,
            },
            {
              title: t('audit.changes'),
              key: 'kind',
              render: (_, l) => <Tag color={KIND_COLORS[l.kind]}>{t(`audit.kinds.${l.kind}`)}</Tag>,
            },
            {
              title: t('audit.before'),
              key: 'before',
              render: (_, l) => <code>{l.before === undefined ? '—' : JSON.stringify(l.before)}</code>,
            },
            {
              title: t('audit.after'),
              key: 'after',
              render: (_, l) => <code>{l.after === undefined ? '—' : JSON.stringify(l.after)}</code>,
            },
          ]}
        />
      )}
    </div>
  );
}

/** Audit entries with expandable before/after diffs, paged on the server. */
export function AuditTable({
  filter,
  onPage,
  pageSize,
}: {
  filter: AuditFilter;
  onPage: (page: number) => void;
  pageSize: number;
}) {
  const { t, locale } = useLocale();
  const query = useQuery(auditQuery(filter));
  const columns: ColumnsType<TAuditEntry> = [
    { title: t('audit.at'), key: 'at', render: (_, e) => dateTimeText(e.at, locale), width: 170 },
    { title: t('audit.operator'), key: 'operator', render: (_, e) => e.operator ?? t('audit.system') },
    { title: t('audit.action'), key: 'action', render: (_, e) => <code>{e.action}</code> },
    {
      title: t('audit.target'),
      key: 'target',
      render: (_, e) => (e.target_id === null ? e.target_type : `${e.target_type} ${e.target_id}`),
    },
    { title: t('audit.user'), key: 'user', render: (_, e) => e.user_id ?? t('common.none') },
    { title: t('audit.reason'), key: 'reason', render: (_, e) => e.reason ?? t('common.none') },
  ];
  return (
    <Table<TAuditEntry>
      rowKey="id"
      size="small"
      loading={query.isFetching}
      dataSource={query.data?.items ?? []}
      columns={columns}
      expandable={{ expandedRowRender: (e) => <AuditDiff entry={e} /> }}
      pagination={{
        current: Math.floor(filter.offset / pageSize) + 1,
        pageSize,
        total: query.data?.total ?? 0,
        showSizeChanger: false,
        showTotal: (total) => t('common.total', { count: total }),
        onChange: onPage,
      }}
    />
  );
}
