import {
  ZOffering,
  ZOfferingList,
  ZOfferingPublish,
  type TOffering,
  type TOfferingKind,
  type TOfferingPublish,
} from '@kabuto/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type FormInstance,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { api } from '@/shared/client';
import { dateTimeText, yenText } from '@/shared/format';
import { applyServerIssues, checkForm } from '@/shared/forms';
import { useLocale } from '@/shared/locale';
import { isAdministrator, useMe } from '@/shared/queries';
import { TokyoDateTimePicker } from '@/shared/tokyo-date-time-picker';

const listKey = ['offerings'] as const;
const offeringsQuery = queryOptions({
  queryKey: listKey,
  staleTime: 0,
  queryFn: () => api.request({ path: '/ipo/offerings', schema: ZOfferingList }),
});

/** The Tokyo Stock Exchange's markets (and Nagoya's), stored as the issuer announces them. */
const MARKETS = ['東証プライム', '東証スタンダード', '東証グロース', '名証メイン'] as const;
const MARKET_KEYS = ['prime', 'standard', 'growth', 'nagoya'] as const;

interface Values {
  issuer?: string;
  code?: string;
  name?: string;
  market?: string;
  price_low?: number | null;
  price_high?: number | null;
  discount_pct?: number | null;
  shares?: number | null;
  unit_shares?: number | null;
  cap_units?: number | null;
  window_open?: string;
  window_close?: string;
  draw_at?: string;
  purchase_deadline?: string;
  listing_at?: string;
  policy?: 'equal' | 'weighted';
  points_pct?: number | null;
  prospectus_url?: string;
}

/** A Tokyo wall-clock value (`YYYY-MM-DDTHH:mm`, from TokyoDateTimePicker) read as Tokyo time (the console's dates are Tokyo's), as an ISO instant. */
function tokyoInstant(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const at = new Date(`${value}:00+09:00`);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}

/** antd's number inputs answer null once cleared. */
const missing = (v: unknown): v is null | undefined => v === null || v === undefined;
const toSen = (yen: number | null | undefined) => (missing(yen) ? undefined : Math.round(yen * 100));
const percentText = (bps: number) => `${(bps / 100).toFixed(2)}%`;

/**
 * Builds the publication request from the form, or puts the form's own errors (the dates out of order, a
 * quantity that is not whole units, a missing discount or points share) on its fields and answers null.
 */
function toRequest(
  kind: TOfferingKind,
  v: Values,
  form: FormInstance,
  texts: { required: string; wholeUnits: string; dateOrder: string },
): Record<string, unknown> | null {
  const errors: { name: string; errors: string[] }[] = [];
  const unit = v.unit_shares ?? 100;
  if (missing(v.shares)) {
    errors.push({ name: 'shares', errors: [texts.required] });
  } else if (v.shares % unit !== 0 || v.shares < unit) {
    errors.push({ name: 'shares', errors: [texts.wholeUnits] });
  }
  if (kind === 'distribution' && missing(v.discount_pct)) {
    errors.push({ name: 'discount_pct', errors: [texts.required] });
  }
  if (kind === 'ipo' && v.policy === 'weighted' && missing(v.points_pct)) {
    errors.push({ name: 'points_pct', errors: [texts.required] });
  }
  // the published order of the dates: window opens, closes, draw, (purchase deadline), listing or delivery
  const order =
    kind === 'ipo'
      ? (['window_open', 'window_close', 'draw_at', 'purchase_deadline', 'listing_at'] as const)
      : (['window_open', 'window_close', 'draw_at', 'listing_at'] as const);
  let previous: string | undefined;
  for (const field of order) {
    const at = tokyoInstant(v[field]);
    if (at === undefined) {
      errors.push({ name: field, errors: [texts.required] });
      continue;
    }
    const strict = field === 'window_close' || field === 'purchase_deadline';
    if (previous !== undefined && (strict ? at <= previous : at < previous)) {
      errors.push({ name: field, errors: [texts.dateOrder] });
    }
    previous = at;
  }
  if (errors.length > 0) {
    form.setFields(errors);
    return null;
  }
  const blank = (s: string | undefined) => (s === undefined || s.trim() === '' ? null : s.trim());
  return {
    kind,
    code: (v.code ?? '').trim().toUpperCase(),
    name: v.name ?? '',
    issuer: v.issuer ?? '',
    market: v.market ?? '',
    price_low: kind === 'ipo' ? toSen(v.price_low) : null,
    price_high: kind === 'ipo' ? toSen(v.price_high) : null,
    discount_bps: kind === 'distribution' ? Math.round((v.discount_pct ?? 0) * 100) : null,
    unit_shares: unit,
    offering_units: Math.floor((v.shares ?? 0) / unit),
    cap_units: v.cap_units ?? undefined,
    window_open: tokyoInstant(v.window_open),
    window_close: tokyoInstant(v.window_close),
    draw_at: tokyoInstant(v.draw_at),
    purchase_deadline: kind === 'ipo' ? tokyoInstant(v.purchase_deadline) : null,
    listing_at: tokyoInstant(v.listing_at),
    policy:
      kind === 'ipo' && v.policy === 'weighted'
        ? { kind: 'weighted', points_bps: Math.round((v.points_pct ?? 0) * 100) }
        : { kind: 'equal' },
    prospectus_url: kind === 'ipo' ? blank(v.prospectus_url) : null,
  };
}

/**
 * /offerings (issue 16, ADR 0026): IPOs and off-auction distributions. Every operator reads the list;
 * administrators publish (an IPO with its range and allocation policy, a distribution whose price the
 * server computes from the previous close), fix an IPO's offer price once and cancel before the draw,
 * each audited by the server. Nothing here touches an application, a draw or a result.
 */
export function OfferingsPage() {
  const { t } = useLocale();
  const me = useMe();
  const admin = isAdministrator(me.data);
  const [fixing, setFixing] = useState<TOffering | null>(null);
  const [cancelling, setCancelling] = useState<TOffering | null>(null);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('offerings.title')}
      </Typography.Title>
      <OfferingsTable admin={admin} onFix={setFixing} onCancel={setCancelling} />
      {admin && <PublishForm kind="ipo" />}
      {admin && <PublishForm kind="distribution" />}
      {fixing !== null && (
        <FixPrice
          offering={fixing}
          onClose={() => {
            setFixing(null);
          }}
        />
      )}
      {cancelling !== null && (
        <CancelOffering
          offering={cancelling}
          onClose={() => {
            setCancelling(null);
          }}
        />
      )}
    </Space>
  );
}

const PHASE_COLORS: Record<TOffering['phase'], string> = {
  upcoming: 'default',
  open: 'green',
  closed: 'gold',
  drawn: 'blue',
  listed: 'purple',
  cancelled: 'red',
};

function OfferingsTable({
  admin,
  onFix,
  onCancel,
}: {
  admin: boolean;
  onFix: (o: TOffering) => void;
  onCancel: (o: TOffering) => void;
}) {
  const { t, locale } = useLocale();
  const list = useQuery(offeringsQuery);
  const money = (v: number | null) => (v === null ? '—' : yenText(v, locale));
  const columns: ColumnsType<TOffering> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    { title: t('offerings.kind'), render: (_, o) => <Tag>{t(`offerings.kinds.${o.kind}`)}</Tag> },
    { title: t('offerings.issue'), render: (_, o) => `${o.code} ${o.name}` },
    {
      title: t('offerings.phase'),
      render: (_, o) => (
        <Tag color={PHASE_COLORS[o.phase]} data-testid="offering-phase">
          {t(`offerings.phases.${o.phase}`)}
        </Tag>
      ),
    },
    {
      title: t('offerings.price'),
      render: (_, o) =>
        o.kind === 'ipo' ? (
          <Space direction="vertical" size={0}>
            <span>{t('offerings.rangeText', { low: money(o.price_low), high: money(o.price_high) })}</span>
            <span data-testid="offer-price">
              {t('offerings.offerPriceText', { price: money(o.offer_price) })}
            </span>
          </Space>
        ) : (
          <span data-testid="offer-price">
            {o.base_close === null
              ? t('offerings.formulaPending', { discount: percentText(o.discount_bps ?? 0) })
              : t('offerings.formula', {
                  close: money(o.base_close),
                  discount: percentText(o.discount_bps ?? 0),
                  price: money(o.offer_price),
                })}
          </span>
        ),
    },
    {
      title: t('offerings.quantity'),
      render: (_, o) =>
        t('offerings.quantityText', {
          shares: (o.offering_units * o.unit_shares).toLocaleString(locale),
          cap: o.cap_units,
        }),
    },
    {
      title: t('offerings.dates'),
      render: (_, o) => (
        <Space direction="vertical" size={0}>
          <span>
            {t('offerings.windowText', {
              open: dateTimeText(o.window_open, locale),
              close: dateTimeText(o.window_close, locale),
            })}
          </span>
          <span>{t('offerings.drawText', { at: dateTimeText(o.draw_at, locale) })}</span>
          {o.purchase_deadline !== null && (
            <span>{t('offerings.deadlineText', { at: dateTimeText(o.purchase_deadline, locale) })}</span>
          )}
          <span>
            {t(o.kind === 'ipo' ? 'offerings.listingText' : 'offerings.deliveryText', {
              at: dateTimeText(o.listing_at, locale),
            })}
          </span>
        </Space>
      ),
    },
    {
      title: t('offerings.policy'),
      render: (_, o) =>
        o.policy.kind === 'equal'
          ? t('offerings.policyEqual')
          : t('offerings.policyWeightedText', {
              lottery: percentText(10_000 - o.policy.points_bps),
              points: percentText(o.policy.points_bps),
            }),
    },
    {
      title: t('offerings.applications'),
      render: (_, o) => t('offerings.applicationsText', { n: o.applications, units: o.applied_units }),
    },
    {
      title: t('common.actions'),
      render: (_, o) => {
        if (!admin) return null;
        const beforeDraw = o.phase === 'upcoming' || o.phase === 'open' || o.phase === 'closed';
        const fixable = o.kind === 'ipo' && o.offer_price === null && o.list_hash === null && beforeDraw;
        return (
          <Space>
            {fixable && (
              <Button
                size="small"
                onClick={() => {
                  onFix(o);
                }}
              >
                {t('offerings.fixPrice')}
              </Button>
            )}
            {beforeDraw && (
              <Button
                size="small"
                danger
                onClick={() => {
                  onCancel(o);
                }}
              >
                {t('offerings.cancel')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];
  return (
    <Card title={t('offerings.list')}>
      <Table<TOffering>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        columns={columns}
        pagination={{ pageSize: 20 }}
        scroll={{ x: true }}
      />
    </Card>
  );
}

/** Publishing an IPO (book-building) or a distribution (its price computed by the server). */
function PublishForm({ kind }: { kind: TOfferingKind }) {
  const { t } = useLocale();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const policy = Form.useWatch('policy', form);
  const ipo = kind === 'ipo';
  const publish = useMutation({
    mutationFn: (body: TOfferingPublish) =>
      api.request({ path: '/ipo/offerings', body, schema: ZOffering, notify: false }),
    onSuccess: (o) => {
      form.resetFields();
      void client.invalidateQueries({ queryKey: listKey });
      void message.success(t('offerings.published', { code: o.code }));
    },
    onError: (error) => {
      if (!applyServerIssues(form, error)) void message.error(error.message);
    },
  });
  const labels: Record<string, string> = {
    issuer: t('offerings.issuer'),
    code: t('offerings.code'),
    name: t('offerings.name'),
    market: t('offerings.market'),
    price_low: t('offerings.priceLow'),
    price_high: t('offerings.priceHigh'),
    unit_shares: t('offerings.unitShares'),
    cap_units: t('offerings.capUnits'),
    prospectus_url: t('offerings.prospectus'),
  };
  const submit = () => {
    const values = form.getFieldsValue();
    const request = toRequest(kind, values, form, {
      required: t('offerings.errors.required'),
      wholeUnits: t('offerings.errors.wholeUnits'),
      dateOrder: t('offerings.errors.dateOrder'),
    });
    if (request === null) return;
    const body = checkForm(form, ZOfferingPublish, request, labels);
    if (body !== null) publish.mutate(body);
  };
  const date = (name: keyof Values, label: string) => (
    <Form.Item name={name} label={label}>
      <TokyoDateTimePicker />
    </Form.Item>
  );
  return (
    <Card title={t(ipo ? 'offerings.publishIpo' : 'offerings.publishDistribution')}>
      {!ipo && <Typography.Paragraph>{t('offerings.distributionNote')}</Typography.Paragraph>}
      <Form<Values>
        form={form}
        layout="vertical"
        name={`offering-${kind}`}
        initialValues={{ unit_shares: 100, policy: 'equal', market: MARKETS[0] }}
        onFinish={submit}
      >
        <Space wrap align="start">
          {ipo && (
            <Form.Item name="issuer" label={t('offerings.issuer')}>
              <Input maxLength={100} style={{ width: 240 }} />
            </Form.Item>
          )}
          <Form.Item name="code" label={t('offerings.code')}>
            <Input maxLength={4} style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="name" label={t('offerings.name')}>
            <Input maxLength={60} style={{ width: 220 }} />
          </Form.Item>
          {!ipo && (
            <Form.Item name="issuer" label={t('offerings.issuer')}>
              <Input maxLength={100} style={{ width: 240 }} />
            </Form.Item>
          )}
          <Form.Item name="market" label={t('offerings.market')}>
            <Select
              style={{ width: 200 }}
              options={MARKETS.map((m, i) => ({
                value: m,
                label: t(`offerings.markets.${MARKET_KEYS[i] ?? 'prime'}`),
              }))}
            />
          </Form.Item>
        </Space>
        <Space wrap align="start">
          {ipo ? (
            <>
              <Form.Item name="price_low" label={t('offerings.priceLow')}>
                <InputNumber min={1} precision={0} style={{ width: 160 }} />
              </Form.Item>
              <Form.Item name="price_high" label={t('offerings.priceHigh')}>
                <InputNumber min={1} precision={0} style={{ width: 160 }} />
              </Form.Item>
            </>
          ) : (
            <Form.Item
              name="discount_pct"
              label={t('offerings.discount')}
              extra={t('offerings.discountHelp')}
            >
              <InputNumber min={0} max={10} step={0.1} precision={2} style={{ width: 160 }} />
            </Form.Item>
          )}
          <Form.Item name="shares" label={t(ipo ? 'offerings.shares' : 'offerings.totalShares')}>
            <InputNumber min={1} precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="unit_shares" label={t('offerings.unitShares')}>
            <InputNumber min={1} max={10_000} precision={0} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="cap_units" label={t('offerings.capUnits')}>
            <InputNumber min={1} max={10_000} precision={0} style={{ width: 140 }} />
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary">{t('offerings.tokyoTime')}</Typography.Paragraph>
        <Space wrap align="start">
          {date('window_open', t(ipo ? 'offerings.bookBuildingOpen' : 'offerings.windowOpen'))}
          {date('window_close', t(ipo ? 'offerings.bookBuildingClose' : 'offerings.windowClose'))}
          {date('draw_at', t('offerings.drawAt'))}
          {ipo && date('purchase_deadline', t('offerings.purchaseDeadline'))}
          {date('listing_at', t(ipo ? 'offerings.listingAt' : 'offerings.deliveryAt'))}
        </Space>
        {ipo && (
          <Space wrap align="start">
            <Form.Item name="policy" label={t('offerings.policy')}>
              <Select
                style={{ width: 320 }}
                options={[
                  { value: 'equal', label: t('offerings.policyEqual') },
                  { value: 'weighted', label: t('offerings.policyWeighted') },
                ]}
              />
            </Form.Item>
            {policy === 'weighted' && (
              <Form.Item
                name="points_pct"
                label={t('offerings.pointsShare')}
                extra={t('offerings.pointsShareHelp')}
              >
                <InputNumber min={0} max={100} precision={0} style={{ width: 140 }} />
              </Form.Item>
            )}
            <Form.Item name="prospectus_url" label={t('offerings.prospectus')}>
              <Input type="url" maxLength={300} style={{ width: 320 }} placeholder="https://" />
            </Form.Item>
          </Space>
        )}
        <Button type="primary" htmlType="submit" loading={publish.isPending} data-testid={`publish-${kind}`}>
          {t('offerings.publish')}
        </Button>
      </Form>
    </Card>
  );
}

/** 公開価格: fixed once, inside the tentative range, before the close (the server checks both). */
function FixPrice({ offering, onClose }: { offering: TOffering; onClose: () => void }) {
  const { t, locale } = useLocale();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ offer_price?: number }>();
  const fix = useMutation({
    mutationFn: (yen: number) =>
      api.request({
        path: `/ipo/offerings/${offering.id}/offer-price`,
        body: { offer_price: Math.round(yen * 100) },
        schema: ZOffering,
      }),
    onSuccess: () => {
      void message.success(t('offerings.priceFixed'));
      void client.invalidateQueries({ queryKey: listKey });
      onClose();
    },
  });
  const low = (offering.price_low ?? 0) / 100;
  const high = (offering.price_high ?? 0) / 100;
  return (
    <Modal
      open
      title={t('offerings.fixPriceTitle', { code: offering.code, name: offering.name })}
      onCancel={onClose}
      okText={t('offerings.fixPrice')}
      cancelText={t('common.cancel')}
      confirmLoading={fix.isPending}
      onOk={() => {
        const value = form.getFieldValue('offer_price') as number | undefined | null;
        if (value === undefined || value === null || value < low || value > high) {
          form.setFields([{ name: 'offer_price', errors: [t('offerings.errors.outOfRange')] }]);
          return;
        }
        fix.mutate(value);
      }}
    >
      <Typography.Paragraph>
        {t('offerings.fixPriceNote', {
          low: yenText(offering.price_low ?? 0, locale),
          high: yenText(offering.price_high ?? 0, locale),
        })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" name="offer-price">
        <Form.Item name="offer_price" label={t('offerings.offerPrice')}>
          <InputNumber min={low} max={high} precision={0} style={{ width: 200 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Cancelling before the draw: every application is void and its cash released (the server does it). */
function CancelOffering({ offering, onClose }: { offering: TOffering; onClose: () => void }) {
  const { t } = useLocale();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason?: string }>();
  const cancel = useMutation({
    mutationFn: (reason: string) =>
      api.request({ path: `/ipo/offerings/${offering.id}/cancel`, body: { reason }, schema: ZOffering }),
    onSuccess: () => {
      void message.success(t('offerings.cancelled'));
      void client.invalidateQueries({ queryKey: listKey });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={t('offerings.cancelTitle', { code: offering.code, name: offering.name })}
      onCancel={onClose}
      okText={t('offerings.cancelConfirm')}
      okButtonProps={{ danger: true }}
      cancelText={t('offerings.keep')}
      confirmLoading={cancel.isPending}
      onOk={() => {
        const reason = ((form.getFieldValue('reason') as string | undefined) ?? '').trim();
        if (reason === '') {
          form.setFields([{ name: 'reason', errors: [t('offerings.errors.reasonRequired')] }]);
          return;
        }
        cancel.mutate(reason);
      }}
    >
      <Typography.Paragraph>{t('offerings.cancelNote', { n: offering.applications })}</Typography.Paragraph>
      <Form form={form} layout="vertical" name="offering-cancel">
        <Form.Item name="reason" label={t('offerings.reason')}>
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
