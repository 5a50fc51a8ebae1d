import {
  LOCALES,
  WEBVIEW_HOSTS,
  ZBannerImage,
  ZConsoleBanner,
  ZConsoleBannerList,
  type Locale,
  type TBannerInput,
  type TConsoleBanner,
} from '@kabuto/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { api } from '@/shared/client';
import { dateTimeText } from '@/shared/format';
import { fieldIssuesOf } from '@kabuto/client/api-error';
import { applyServerIssues } from '@/shared/forms';
import { useLocale } from '@/shared/locale';
import { AuthImage } from '@/shared/auth-image';
import { TOKYO_WALL_CLOCK, TokyoDateTimePicker } from '@/shared/tokyo-date-time-picker';
import { LOCALE_NAMES } from '@/locales/names';
import dayjs from 'dayjs';

const listKey = ['banners'] as const;

type TextFields = { [K in `title_${Locale}` | `alt_${Locale}`]?: string };
interface Values extends TextFields {
  link?: string;
  sort_order?: number | null;
  starts_at?: string;
  ends_at?: string;
}

/** A Tokyo wall-clock value of the picker as an ISO instant. */
function tokyoInstant(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const at = new Date(`${value}:00+09:00`);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}

/** An ISO instant as the picker's Tokyo wall-clock value. */
function tokyoWallClock(iso: string): string {
  return dayjs(new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 16)).format(TOKYO_WALL_CLOCK);
}

/** The form's values as the request (the server checks everything again, and names the field it refuses). */
function toInput(uploadId: string, v: Values): TBannerInput {
  const texts = LOCALES.flatMap((locale) => {
    const title = (v[`title_${locale}`] ?? '').trim();
    const alt = (v[`alt_${locale}`] ?? '').trim();
    return title === '' && alt === '' ? [] : [{ locale, title, alt }];
  });
  return {
    upload_id: uploadId,
    texts,
    link: (v.link ?? '').trim(),
    sort_order: v.sort_order ?? 0,
    starts_at: tokyoInstant(v.starts_at) ?? '',
    ends_at: tokyoInstant(v.ends_at) ?? null,
  };
}

/**
 * The server's refusal with its text fields (`texts.2.title`) named as the form's (`title_zh-Hant`), and
 * a refusal of the whole list (`texts`) on the Japanese title, so that each message sits under its field.
 */
function onFormFields(error: unknown, values: Values): unknown {
  const texts = toInput('', values).texts;
  for (const issue of fieldIssuesOf(error)) {
    const m = /^texts\.(\d+)\.(title|alt)$/.exec(issue.field);
    const locale = m ? texts[Number(m[1])]?.locale : undefined;
    if (m && locale !== undefined) issue.field = `${m[2] ?? 'title'}_${locale}`;
    else if (issue.field === 'texts' || issue.field.startsWith('texts.')) issue.field = 'title_ja';
  }
  return error;
}

/**
 * /banners (editors and administrators): the home page's banners. Upload a picture (checked and re-encoded
 * by the server), the title and alternative text per language (a missing language falls back as news
 * does), a link (an in-app page or an allow-listed address), an order and a publish window in Tokyo time;
 * preview, save as a draft, publish, edit and retract. Every change is audited (ADR 0041).
 */
export function BannersPage() {
  const { t, locale } = useLocale();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<TConsoleBanner | null>(null);
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ title: string; alt: string } | null>(null);
  const [retracting, setRetracting] = useState<TConsoleBanner | null>(null);
  const [reason, setReason] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);

  const list = useQuery({
    queryKey: listKey,
    queryFn: () => api.request({ path: '/banners', schema: ZConsoleBannerList }),
  });
  const upload = useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return api.request({
        method: 'POST',
        path: '/banners/images',
        form: body,
        schema: ZBannerImage,
        notify: false,
      });
    },
    onSuccess: (image) => {
      setUploadId(image.id);
      setImageError(null);
    },
    onError: (error) => {
      setImageError(error.message);
    },
  });
  const reset = () => {
    form.resetFields();
    setEditing(null);
    setUploadId(null);
    setImageError(null);
  };
  const save = useMutation({
    mutationFn: ({ values, publish }: { values: Values; publish: boolean }) => {
      const body = toInput(uploadId ?? '', values);
      return editing === null
        ? api.request({
            method: 'POST',
            path: '/banners',
            query: { publish: String(publish) },
            body,
            schema: ZConsoleBanner,
            notify: false,
          })
        : api.request({
            method: 'PUT',
            path: `/banners/${editing.id}`,
            body,
            schema: ZConsoleBanner,
            notify: false,
          });
    },
    onSuccess: () => {
      reset();
      void client.invalidateQueries({ queryKey: listKey });
      void message.success(t('common.saved'));
    },
    onError: (error, { values }) => {
      if (!applyServerIssues(form, onFormFields(error, values))) void message.error(error.message);
    },
  });
  const act = useMutation({
    mutationFn: ({ id, action, why }: { id: number; action: 'publish' | 'retract'; why?: string }) =>
      api.request({
        method: 'POST',
        path: `/banners/${id}/${action}`,
        ...(action === 'retract' ? { body: { reason: why ?? '' } } : {}),
        schema: ZConsoleBanner,
      }),
    onSuccess: () => {
      setRetracting(null);
      setReason('');
      void client.invalidateQueries({ queryKey: listKey });
      void message.success(t('common.saved'));
    },
  });
  const submit = (publish: boolean) => {
    if (uploadId === null) {
      setImageError(t('banners.imageRequired'));
      return;
    }
    save.mutate({ values: form.getFieldsValue(), publish });
  };
  const edit = (banner: TConsoleBanner) => {
    setEditing(banner);
    setUploadId(banner.upload_id);
    setImageError(null);
    const values: Values = {
      link: banner.link,
      sort_order: banner.sort_order,
      starts_at: tokyoWallClock(banner.starts_at),
      ...(banner.ends_at === null ? {} : { ends_at: tokyoWallClock(banner.ends_at) }),
    };
    for (const text of banner.texts) {
      values[`title_${text.locale}`] = text.title;
      values[`alt_${text.locale}`] = text.alt;
    }
    form.resetFields();
    form.setFieldsValue(values);
  };
  const showPreview = () => {
    const values = form.getFieldsValue();
    const title = (values[`title_${locale}`] ?? '').trim() || (values.title_ja ?? '').trim();
    const alt = (values[`alt_${locale}`] ?? '').trim() || (values.alt_ja ?? '').trim();
    setPreview({ title, alt });
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={3}>{t('banners.title')}</Typography.Title>
      <Card title={editing === null ? t('banners.new') : t('banners.editing', { id: editing.id })}>
        <Form<Values>
          form={form}
          layout="vertical"
          name="banner"
          initialValues={{ sort_order: 0 }}
          onFinish={() => {
            submit(true);
          }}
        >
          <Form.Item
            label={t('banners.image')}
            extra={t('banners.imageHint')}
            validateStatus={imageError === null ? undefined : 'error'}
            help={imageError ?? undefined}
          >
            <Space align="center">
              {uploadId !== null && <AuthImage uploadId={uploadId} alt={t('banners.image')} />}
              <input
                ref={fileInput}
                type="file"
                accept="image/jpeg,image/png,image/webp"
                hidden
                data-testid="banner-file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file !== undefined) upload.mutate(file);
                }}
              />
              <Button loading={upload.isPending} onClick={() => fileInput.current?.click()}>
                {uploadId === null ? t('banners.chooseImage') : t('banners.changeImage')}
              </Button>
            </Space>
          </Form.Item>
          <Typography.Paragraph type="secondary">{t('banners.textsHint')}</Typography.Paragraph>
          {LOCALES.map((l) => (
            <Space key={l} wrap align="start">
              <Form.Item name={`title_${l}`} label={t('banners.titleIn', { language: LOCALE_NAMES[l] })}>
                <Input maxLength={60} style={{ width: 320 }} data-testid={`banner-title-${l}`} />
              </Form.Item>
              <Form.Item name={`alt_${l}`} label={t('banners.altIn', { language: LOCALE_NAMES[l] })}>
                <Input maxLength={200} style={{ width: 420 }} data-testid={`banner-alt-${l}`} />
              </Form.Item>
            </Space>
          ))}
          <Form.Item
            name="link"
            label={t('banners.link')}
            extra={t('banners.linkHint', { hosts: WEBVIEW_HOSTS.join(', ') })}
          >
            <Input maxLength={500} style={{ width: 480 }} placeholder="/subPackages/index/ipo/ipo" />
          </Form.Item>
          <Space wrap align="start">
            <Form.Item name="sort_order" label={t('banners.order')} extra={t('banners.orderHint')}>
              <InputNumber min={0} max={999} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="starts_at" label={t('banners.startsAt')}>
              <TokyoDateTimePicker />
            </Form.Item>
            <Form.Item name="ends_at" label={t('banners.endsAt')} extra={t('banners.endsAtHint')}>
              <TokyoDateTimePicker />
            </Form.Item>
          </Space>
          <Typography.Paragraph type="secondary">{t('offerings.tokyoTime')}</Typography.Paragraph>
          <Space>
            <Button onClick={showPreview} disabled={uploadId === null}>
              {t('banners.preview')}
            </Button>
            {editing === null && (
              <Button
                onClick={() => {
                  submit(false);
                }}
              >
                {t('banners.saveDraft')}
              </Button>
            )}
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="banner-publish">
              {editing === null ? t('banners.publish') : t('banners.saveEdit')}
            </Button>
            {editing !== null && <Button onClick={reset}>{t('common.cancel')}</Button>}
          </Space>
        </Form>
      </Card>
      <Table<TConsoleBanner>
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        pagination={{ pageSize: 20 }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          {
            title: t('banners.bannerTitle'),
            render: (_, b) => (b.texts.find((x) => x.locale === locale) ?? b.texts[0])?.title ?? '',
          },
          { title: t('banners.languages'), render: (_, b) => b.texts.map((x) => x.locale).join(', ') },
          { title: t('banners.link'), dataIndex: 'link', ellipsis: true },
          { title: t('banners.order'), dataIndex: 'sort_order', width: 80 },
          {
            title: t('banners.window'),
            render: (_, b) =>
              `${dateTimeText(b.starts_at, locale)} – ${b.ends_at === null ? '' : dateTimeText(b.ends_at, locale)}`,
          },
          {
            title: t('banners.state'),
            render: (_, b) => (
              <Tag color={b.state === 'published' ? 'green' : b.state === 'retracted' ? 'red' : 'default'}>
                {t(`banners.states.${b.state}`)}
              </Tag>
            ),
          },
          { title: t('banners.revision'), dataIndex: 'revision', width: 90 },
          {
            title: '',
            render: (_, b) =>
              b.state === 'retracted' ? null : (
                <Space>
                  <Button
                    size="small"
                    onClick={() => {
                      edit(b);
                    }}
                  >
                    {t('banners.edit')}
                  </Button>
                  {b.state === 'draft' ? (
                    <Button
                      size="small"
                      type="primary"
                      onClick={() => {
                        act.mutate({ id: b.id, action: 'publish' });
                      }}
                    >
                      {t('banners.publish')}
                    </Button>
                  ) : (
                    <Button
                      size="small"
                      danger
                      onClick={() => {
                        setRetracting(b);
                      }}
                    >
                      {t('banners.retract')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <Modal
        open={preview !== null}
        onCancel={() => {
          setPreview(null);
        }}
        footer={null}
        title={t('banners.preview')}
      >
        <Typography.Paragraph type="secondary">{t('banners.previewHint')}</Typography.Paragraph>
        <div className="banner-preview" data-testid="banner-preview">
          {uploadId !== null && <AuthImage uploadId={uploadId} alt={preview?.alt ?? ''} />}
          <span className="banner-preview__title">{preview?.title}</span>
        </div>
      </Modal>
      <Modal
        open={retracting !== null}
        title={t('banners.retractTitle', { id: retracting?.id ?? '' })}
        okText={t('banners.retract')}
        okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: act.isPending }}
        onOk={() => {
          if (retracting !== null) act.mutate({ id: retracting.id, action: 'retract', why: reason.trim() });
        }}
        onCancel={() => {
          setRetracting(null);
          setReason('');
        }}
      >
        <Input.TextArea
          rows={3}
          maxLength={500}
          value={reason}
          aria-label={t('banners.retractReason')}
          placeholder={t('banners.retractReason')}
          onChange={(event) => {
            setReason(event.target.value);
          }}
        />
      </Modal>
    </Space>
  );
}
