import { ZConsoleSupportDetail, ZConsoleSupportList, ZSupportMessage } from '@kabuto/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Badge, Button, Card, Input, List, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { z } from 'zod';
import { api } from '@/shared/client';
import { useLocale } from '@/shared/locale';

/** How often the queue and the open conversation are read again (the console polls). */
export const SUPPORT_POLL_MS = 5_000;
const ZOk = z.object({ ok: z.literal(true) });

/**
 * /support: the support queue (every operator but editors). Unread counts per conversation, states (open,
 * waiting for the user, resolved), assignment; answers are checked by the server, which refuses an
 * account number, a request for a password or a link outside the allow-list and says why (ADR 0029).
 */
export function SupportPage() {
  const { t } = useLocale();
  const [selected, setSelected] = useState<number | null>(null);
  const list = useQuery({
    queryKey: ['support'],
    queryFn: () => api.request({ path: '/support', schema: ZConsoleSupportList }),
    refetchInterval: SUPPORT_POLL_MS,
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={3}>
        {t('support.title')} <Badge count={list.data?.unread ?? 0} />
      </Typography.Title>
      <Table
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        pagination={{ pageSize: 20 }}
        onRow={(row) => ({
          onClick: () => {
            setSelected(row.id);
          },
          style: { cursor: 'pointer' },
        })}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          { title: t('support.user'), dataIndex: 'user_id', width: 90 },
          {
            title: t('support.state'),
            render: (_, r) => <Tag>{t(`support.states.${r.state}`)}</Tag>,
          },
          { title: t('support.unread'), render: (_, r) => <Badge count={r.unread} showZero={false} /> },
          { title: t('support.last'), dataIndex: 'last_text', ellipsis: true },
          { title: t('support.assignee'), render: (_, r) => r.assignee_id ?? '—' },
        ]}
      />
      {selected !== null && <Conversation id={selected} />}
    </Space>
  );
}

function Conversation({ id }: { id: number }) {
  const { t } = useLocale();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [blocked, setBlocked] = useState<string | null>(null);
  const detail = useQuery({
    queryKey: ['support', id],
    queryFn: () => api.request({ path: `/support/${id}`, schema: ZConsoleSupportDetail }),
    refetchInterval: SUPPORT_POLL_MS,
  });
  const reply = useMutation({
    mutationFn: (body: string) =>
      api.request({
        method: 'POST',
        path: `/support/${id}/reply`,
        body: { text: body },
        schema: ZSupportMessage,
        notify: false,
      }),
    onSuccess: () => {
      setText('');
      setBlocked(null);
      void client.invalidateQueries({ queryKey: ['support'] });
    },
    onError: (error) => {
      setBlocked(error.message);
    },
  });
  const state = useMutation({
    mutationFn: (next: string) =>
      api.request({ method: 'POST', path: `/support/${id}/state`, body: { state: next }, schema: ZOk }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['support'] });
      void message.success(t('common.saved'));
    },
  });
  const data = detail.data;
  return (
    <Card
      title={t('support.conversation', { id })}
      extra={
        <Select
          value={data?.state}
          style={{ width: 200 }}
          onChange={(next) => {
            state.mutate(next);
          }}
          options={(['open', 'waiting_user', 'resolved'] as const).map((s) => ({
            value: s,
            label: t(`support.states.${s}`),
          }))}
        />
      }
    >
      <List
        dataSource={data?.messages ?? []}
        renderItem={(m) => (
          <List.Item>
            <List.Item.Meta
              title={`${m.from === 'staff' ? t('support.staff') : t('support.customer')} · ${new Date(m.created_at).toLocaleString()}`}
              description={<span style={{ whiteSpace: 'pre-wrap' }}>{m.text}</span>}
            />
          </List.Item>
        )}
      />
      {blocked !== null && <Alert type="error" showIcon message={blocked} data-testid="support-blocked" />}
      <Space.Compact style={{ width: '100%', marginTop: 12 }}>
        <Input.TextArea
          value={text}
          onChange={(e) => {
            setText(e.target.value);
          }}
          maxLength={2000}
          rows={3}
          data-testid="support-reply"
          aria-label={t('support.reply')}
        />
        <Button
          type="primary"
          loading={reply.isPending}
          disabled={text.trim() === ''}
          onClick={() => {
            reply.mutate(text.trim());
          }}
        >
          {t('support.send')}
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('support.guard')}
      </Typography.Paragraph>
    </Card>
  );
}
