import { ZBannerImage, ZConsoleSupportDetail, ZConsoleSupportList, ZSupportMessage } from '@kabuto/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Badge, Button, Card, Input, List, Select, Space, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { z } from 'zod';
import { AuthImage } from '@/shared/auth-image';
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
  const [imageId, setImageId] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const detail = useQuery({
    queryKey: ['support', id],
    queryFn: () => api.request({ path: `/support/${id}`, schema: ZConsoleSupportDetail }),
    refetchInterval: SUPPORT_POLL_MS,
  });
  const reply = useMutation({
    mutationFn: (body: { text: string; upload_id?: string }) =>
      api.request({
        method: 'POST',
        path: `/support/${id}/reply`,
        body,
        schema: ZSupportMessage,
        notify: false,
      }),
    onSuccess: () => {
      setText('');
      setImageId(null);
      setBlocked(null);
      void client.invalidateQueries({ queryKey: ['support'] });
    },
    onError: (error) => {
      setBlocked(error.message);
    },
  });
  /** An image for this conversation, checked and re-encoded by the server, sent by the next answer. */
  const attach = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return api.request({
        method: 'POST',
        path: `/support/${id}/images`,
        form,
        schema: ZBannerImage,
        notify: false,
      });
    },
    onSuccess: (image) => {
      setImageId(image.id);
      setBlocked(null);
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
              description={
                <Space direction="vertical">
                  {m.text !== '' && <span style={{ whiteSpace: 'pre-wrap' }}>{m.text}</span>}
                  {m.upload_id !== null && (
                    <span className="support-image" data-testid="support-image">
                      <AuthImage uploadId={m.upload_id} alt={t('support.image')} />
                    </span>
                  )}
                </Space>
              }
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
          disabled={(text.trim() === '' && imageId === null) || attach.isPending}
          data-testid="support-send"
          onClick={() => {
            reply.mutate(
              imageId === null ? { text: text.trim() } : { text: text.trim(), upload_id: imageId },
            );
          }}
        >
          {t('support.send')}
        </Button>
      </Space.Compact>
      <Space style={{ marginTop: 8 }} align="center" wrap>
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          hidden
          data-testid="support-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file !== undefined) attach.mutate(file);
          }}
        />
        <Button
          loading={attach.isPending}
          onClick={() => fileInput.current?.click()}
          data-testid="support-attach"
        >
          {t('support.attach')}
        </Button>
        {imageId !== null && (
          <>
            <span className="support-image" data-testid="support-attachment">
              <AuthImage uploadId={imageId} alt={t('support.attached')} />
            </span>
            <Button
              type="link"
              onClick={() => {
                setImageId(null);
              }}
            >
              {t('support.removeImage')}
            </Button>
          </>
        )}
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('support.imageHint')}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('support.guard')}
      </Typography.Paragraph>
    </Card>
  );
}
