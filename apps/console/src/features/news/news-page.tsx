import {
  NEWS_CATEGORIES,
  ZArticlePreview,
  ZConsoleArticle,
  ZConsoleArticleList,
  type TArticleInput,
  type TConsoleArticle,
} from '@kabuto/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { api } from '@/shared/client';
import { applyServerIssues } from '@/shared/forms';
import { useLocale } from '@/shared/locale';

const listKey = ['news-articles'] as const;

interface Values {
  category: TArticleInput['category'];
  codes: string;
  pinned: boolean;
  ja_title: string;
  ja_body: string;
  en_title: string;
  en_body: string;
}

/** The article as the form shows it: the Japanese and English versions (other languages fall back). */
function toInput(v: Values): TArticleInput {
  const versions: TArticleInput['versions'] = [];
  if (v.ja_title.trim() !== '') versions.push({ locale: 'ja', title: v.ja_title, body: v.ja_body });
  if (v.en_title.trim() !== '') versions.push({ locale: 'en', title: v.en_title, body: v.en_body });
  const codes = v.codes
    .split(/[\s,、]+/)
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== '');
  return { category: v.category, codes, pinned: v.pinned, versions };
}

/**
 * /news (editors and administrators): write, preview, publish, edit and retract articles; every change is
 * audited and the previous version kept by the server (ADR 0029).
 */
export function NewsPage() {
  const { t } = useLocale();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<TConsoleArticle | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const list = useQuery({
    queryKey: listKey,
    queryFn: () => api.request({ path: '/news', schema: ZConsoleArticleList }),
  });
  const save = useMutation({
    mutationFn: ({ values, publish }: { values: Values; publish: boolean }) =>
      editing === null
        ? api.request({
            method: 'POST',
            path: '/news',
            query: { publish: String(publish) },
            body: toInput(values),
            schema: ZConsoleArticle,
            notify: false,
          })
        : api.request({
            method: 'PUT',
            path: `/news/${editing.id}`,
            body: toInput(values),
            schema: ZConsoleArticle,
            notify: false,
          }),
    onSuccess: () => {
      form.resetFields();
      setEditing(null);
      void client.invalidateQueries({ queryKey: listKey });
      void message.success(t('common.saved'));
    },
    onError: (error) => {
      if (!applyServerIssues(form, error)) void message.error(error.message);
    },
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'publish' | 'retract' }) =>
      api.request({
        method: 'POST',
        path: `/news/${id}/${action}`,
        ...(action === 'retract' ? { body: { reason: t('news.retractReason') } } : {}),
        schema: ZConsoleArticle,
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: listKey }),
  });
  const showPreview = async () => {
    const values = form.getFieldsValue();
    const body = values.ja_body || values.en_body;
    if (!body) return;
    const answer = await api.request({
      method: 'POST',
      path: '/news/preview',
      body: { body },
      schema: ZArticlePreview,
    });
    setPreview(answer.html);
  };
  const edit = (article: TConsoleArticle) => {
    setEditing(article);
    const ja = article.versions.find((v) => v.locale === 'ja');
    const en = article.versions.find((v) => v.locale === 'en');
    form.setFieldsValue({
      category: article.category,
      codes: article.codes.join(' '),
      pinned: article.pinned,
      ja_title: ja?.title ?? '',
      ja_body: ja?.body ?? '',
      en_title: en?.title ?? '',
      en_body: en?.body ?? '',
    });
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={3}>{t('news.title')}</Typography.Title>
      <Card title={editing === null ? t('news.new') : t('news.editing', { id: editing.id })}>
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{
            category: 'market',
            codes: '',
            pinned: false,
            ja_title: '',
            ja_body: '',
            en_title: '',
            en_body: '',
          }}
          onFinish={(values) => {
            save.mutate({ values, publish: true });
          }}
        >
          <Space wrap>
            <Form.Item label={t('news.category')} name="category">
              <Select
                style={{ width: 200 }}
                options={NEWS_CATEGORIES.map((c) => ({ value: c, label: t(`news.categories.${c}`) }))}
              />
            </Form.Item>
            <Form.Item label={t('news.codes')} name="codes">
              <Input style={{ width: 240 }} placeholder="7203 6758" />
            </Form.Item>
            <Form.Item name="pinned" valuePropName="checked" label=" ">
              <Checkbox>{t('news.pinned')}</Checkbox>
            </Form.Item>
          </Space>
          <Form.Item label={t('news.titleJa')} name="ja_title">
            <Input maxLength={200} data-testid="news-ja-title" />
          </Form.Item>
          <Form.Item label={t('news.bodyJa')} name="ja_body" extra={t('news.markdown')}>
            <Input.TextArea rows={5} maxLength={50_000} data-testid="news-ja-body" />
          </Form.Item>
          <Form.Item label={t('news.titleEn')} name="en_title">
            <Input maxLength={200} data-testid="news-en-title" />
          </Form.Item>
          <Form.Item label={t('news.bodyEn')} name="en_body">
            <Input.TextArea rows={5} maxLength={50_000} data-testid="news-en-body" />
          </Form.Item>
          <Space>
            <Button onClick={() => void showPreview()}>{t('news.preview')}</Button>
            {editing === null && (
              <Button
                onClick={() => {
                  save.mutate({ values: form.getFieldsValue(), publish: false });
                }}
              >
                {t('news.saveDraft')}
              </Button>
            )}
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="news-publish">
              {editing === null ? t('news.publish') : t('news.saveEdit')}
            </Button>
            {editing !== null && (
              <Button
                onClick={() => {
                  setEditing(null);
                  form.resetFields();
                }}
              >
                {t('common.cancel')}
              </Button>
            )}
          </Space>
        </Form>
      </Card>
      <Table<TConsoleArticle>
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        pagination={{ pageSize: 20 }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          {
            title: t('news.articleTitle'),
            render: (_, a) => a.versions[0]?.title ?? '',
          },
          { title: t('news.category'), render: (_, a) => t(`news.categories.${a.category}`) },
          { title: t('news.languages'), render: (_, a) => a.versions.map((v) => v.locale).join(', ') },
          {
            title: t('news.state'),
            render: (_, a) => (
              <Tag color={a.state === 'published' ? 'green' : a.state === 'retracted' ? 'red' : 'default'}>
                {t(`news.states.${a.state}`)}
              </Tag>
            ),
          },
          { title: t('news.revision'), dataIndex: 'revision', width: 90 },
          {
            title: '',
            render: (_, a) =>
              a.state === 'retracted' ? null : (
                <Space>
                  <Button
                    size="small"
                    onClick={() => {
                      edit(a);
                    }}
                  >
                    {t('news.edit')}
                  </Button>
                  {a.state === 'draft' && (
                    <Button
                      size="small"
                      type="primary"
                      onClick={() => {
                        act.mutate({ id: a.id, action: 'publish' });
                      }}
                    >
                      {t('news.publish')}
                    </Button>
                  )}
                  <Button
                    size="small"
                    danger
                    onClick={() => {
                      act.mutate({ id: a.id, action: 'retract' });
                    }}
                  >
                    {t('news.retract')}
                  </Button>
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
        title={t('news.preview')}
      >
        {/* sanitised by the server (ADR 0029) */}
        <div dangerouslySetInnerHTML={{ __html: preview ?? '' }} />
      </Modal>
    </Space>
  );
}
