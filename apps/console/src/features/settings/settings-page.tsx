import {
  ZFirmDepositAccount,
  ZSettingProposalList,
  ZSettings,
  ZWithdrawalThreshold,
  type SettingKey,
  type TSettingProposal,
  type TSettings,
} from '@kabuto/contract';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient, queryOptions } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Descriptions,
  Input,
  InputNumber,
  Popconfirm,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Typography,
  type FormInstance,
} from 'antd';
import { useEffect } from 'react';
import { api } from '@/shared/client';
import { dateTimeText } from '@/shared/format';
import { applyServerIssues, checkForm } from '@/shared/forms';
import { useLocale } from '@/shared/locale';
import { isAdministrator, proposalsQuery, useMe } from '@/shared/queries';

const settingsQuery = queryOptions({
  queryKey: ['settings'],
  queryFn: () => api.request({ path: '/settings', schema: ZSettings }),
});

/** The fields a second administrator must confirm (ADR 0034); the rest of these parts apply at once. */
const GUARDED: Partial<Record<SettingKey, readonly string[]>> = {
  withdrawal: Object.keys(ZWithdrawalThreshold.shape),
  deposit: Object.keys(ZFirmDepositAccount.shape),
};

/** Whether the server held some of what was sent for a second administrator's confirmation. */
function heldForConfirmation(key: SettingKey, sent: object, answered: object): boolean {
  const fields = GUARDED[key] ?? [];
  const a = sent as Record<string, unknown>;
  const b = answered as Record<string, unknown>;
  return fields.some((f) => JSON.stringify(a[f] ?? null) !== JSON.stringify(b[f] ?? null));
}

/** PUT /api/console/settings/:key (administrator): that part of the settings, answers all of them. */
function useSaveSetting<K extends SettingKey>(key: K, form: FormInstance) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { t } = useLocale();
  return useMutation({
    mutationFn: (body: TSettings[K]) =>
      api.request({ method: 'PUT', path: `/settings/${key}`, body, schema: ZSettings, notify: false }),
    onSuccess: (settings, body) => {
      queryClient.setQueryData(settingsQuery.queryKey, settings);
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      void queryClient.invalidateQueries({ queryKey: proposalsQuery.queryKey });
      if (heldForConfirmation(key, body, settings[key])) void message.info(t('settings.proposed'));
      else void message.success(t('common.saved'));
    },
    onError: (error) => {
      if (!applyServerIssues(form, error)) void message.error(error.message);
    },
  });
}

/**
 * The changes waiting for a second administrator (ADR 0034): what would take effect, who proposed it and
 * when; another administrator confirms, either cancels. The proposer is not offered the confirmation.
 */
function Proposals({ operatorId, editable }: { operatorId: number | undefined; editable: boolean }) {
  const { t, locale } = useLocale();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery(proposalsQuery);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: proposalsQuery.queryKey });
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
  };
  const confirm = useMutation({
    mutationFn: (id: number) =>
      api.request({ path: `/settings/proposals/${String(id)}/confirm`, body: {}, schema: ZSettings }),
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsQuery.queryKey, settings);
      refresh();
      void message.success(t('settings.confirmed'));
    },
    onError: refresh,
  });
  const cancel = useMutation({
    mutationFn: (id: number) =>
      api.request({
        path: `/settings/proposals/${String(id)}/cancel`,
        body: {},
        schema: ZSettingProposalList,
      }),
    onSuccess: () => {
      refresh();
      void message.success(t('settings.cancelled'));
    },
    onError: refresh,
  });
  const number = new Intl.NumberFormat(locale);
  const items = (p: TSettingProposal) =>
    p.key === 'withdrawal'
      ? [
          {
            key: 'threshold',
            label: t('settings.secondOverYen'),
            children: number.format(p.proposed.second_approval_over_yen),
          },
        ]
      : [
          { key: 'bank_code', label: t('settings.bankCode'), children: p.proposed.bank_code ?? '—' },
          { key: 'bank_name', label: t('settings.bankName'), children: p.proposed.bank_name },
          { key: 'branch_name', label: t('settings.branchName'), children: p.proposed.branch_name },
          { key: 'branch_number', label: t('settings.branchNumber'), children: p.proposed.branch_number },
          {
            key: 'account_type',
            label: t('settings.accountType'),
            children: t(`settings.accountTypes.${p.proposed.account_type}`),
          },
          { key: 'holder', label: t('settings.holder'), children: p.proposed.holder },
          { key: 'holder_kana', label: t('settings.holderKana'), children: p.proposed.holder_kana ?? '—' },
          { key: 'number_prefix', label: t('settings.numberPrefix'), children: p.proposed.number_prefix },
        ];
  const proposals = query.data?.items ?? [];
  if (proposals.length === 0) return null;
  return (
    <>
      {proposals.map((p) => {
        const own = p.proposed_by.id === operatorId;
        return (
          <Alert
            key={p.id}
            type={p.expired ? 'error' : 'warning'}
            showIcon
            data-testid={`proposal-${p.key}`}
            message={t(p.expired ? 'settings.expiredTitle' : 'settings.pending', {
              part: t(p.key === 'withdrawal' ? 'settings.withdrawal' : 'settings.deposit'),
            })}
            description={
              <Space direction="vertical" style={{ width: '100%' }}>
                <Typography.Text>
                  {t('settings.pendingBy', {
                    name: p.proposed_by.display_name,
                    at: dateTimeText(p.proposed_at, locale),
                  })}
                </Typography.Text>
                {p.expired ? (
                  <Typography.Text strong>
                    {t('settings.expiredAt', { at: dateTimeText(p.expires_at, locale) })}
                  </Typography.Text>
                ) : (
                  <Typography.Text>
                    {t('settings.expiresAt', { at: dateTimeText(p.expires_at, locale) })}
                  </Typography.Text>
                )}
                <Descriptions size="small" column={1} bordered items={items(p)} />
                {p.key === 'deposit' && (
                  <Typography.Text type="secondary">{t('settings.depositNotice')}</Typography.Text>
                )}
                {own && !p.expired && (
                  <Typography.Text type="secondary">{t('settings.ownProposal')}</Typography.Text>
                )}
                {editable && (
                  <Space>
                    {!own && !p.expired && (
                      <Popconfirm
                        title={t('settings.confirmTitle')}
                        okText={t('settings.confirm')}
                        cancelText={t('common.cancel')}
                        onConfirm={() => {
                          confirm.mutate(p.id);
                        }}
                      >
                        <Button type="primary" loading={confirm.isPending}>
                          {t('settings.confirm')}
                        </Button>
                      </Popconfirm>
                    )}
                    <Button
                      danger
                      loading={cancel.isPending}
                      onClick={() => {
                        cancel.mutate(p.id);
                      }}
                    >
                      {t('settings.cancelProposal')}
                    </Button>
                  </Space>
                )}
              </Space>
            }
          />
        );
      })}
    </>
  );
}

interface WithdrawalValues {
  min_yen: number | null;
  windows: { start?: string; end?: string }[];
  second_approval_over_yen: number | null;
}

function WithdrawalForm({ value, editable }: { value: TSettings['withdrawal']; editable: boolean }) {
  const { t } = useLocale();
  const [form] = Form.useForm<WithdrawalValues>();
  const save = useSaveSetting('withdrawal', form);
  useEffect(() => {
    form.setFieldsValue(value);
  }, [form, value]);
  const submit = (values: WithdrawalValues) => {
    const body = checkForm(form, ZSettings.shape.withdrawal, values, {
      min_yen: t('settings.minYen'),
      second_approval_over_yen: t('settings.secondOverYen'),
      start: t('settings.start'),
      end: t('settings.end'),
    });
    if (body !== null) save.mutate(body);
  };
  return (
    <Card title={t('settings.withdrawal')}>
      <Typography.Paragraph type="secondary">{t('settings.fourEyesThreshold')}</Typography.Paragraph>
      <Form
        form={form}
        name="settings-withdrawal"
        layout="vertical"
        disabled={!editable}
        onFinish={submit}
        initialValues={value}
      >
        <Form.Item label={t('settings.minYen')} name="min_yen">
          <InputNumber min={1} precision={0} style={{ width: 220 }} />
        </Form.Item>
        <Typography.Text strong>{t('settings.windows')}</Typography.Text>
        <Form.List name="windows">
          {(fields, { add, remove }) => (
            <div style={{ marginTop: 8 }}>
              {fields.map((field, index) => (
                <Space key={field.key} align="baseline">
                  <Form.Item label={`${t('settings.start')} ${index + 1}`} name={[field.name, 'start']}>
                    <Input placeholder="09:00" style={{ width: 100 }} />
                  </Form.Item>
                  <Form.Item label={`${t('settings.end')} ${index + 1}`} name={[field.name, 'end']}>
                    <Input placeholder="15:00" style={{ width: 100 }} />
                  </Form.Item>
                  {editable && fields.length > 1 && (
                    <Button
                      type="text"
                      aria-label={`${t('common.remove')} ${index + 1}`}
                      icon={<MinusCircleOutlined />}
                      onClick={() => {
                        remove(field.name);
                      }}
                    />
                  )}
                </Space>
              ))}
              {editable && fields.length < 6 && (
                <Form.Item>
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => {
                      add({ start: '', end: '' });
                    }}
                  >
                    {t('settings.addWindow')}
                  </Button>
                </Form.Item>
              )}
            </div>
          )}
        </Form.List>
        <Form.Item label={t('settings.secondOverYen')} name="second_approval_over_yen">
          <InputNumber min={0} precision={0} style={{ width: 220 }} />
        </Form.Item>
        {editable && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

type DepositValues = Omit<TSettings['deposit'], 'url'> & { url: string | null };

function DepositForm({ value, editable }: { value: TSettings['deposit']; editable: boolean }) {
  const { t } = useLocale();
  const [form] = Form.useForm<DepositValues>();
  const save = useSaveSetting('deposit', form);
  useEffect(() => {
    form.setFieldsValue({ ...value, url: value.url ?? '' });
  }, [form, value]);
  const submit = (values: DepositValues) => {
    const url = (values.url ?? '').trim();
    const body = checkForm(
      form,
      ZSettings.shape.deposit,
      // the fields this form does not show (bank code, kana holder) keep their value in force
      { ...value, ...values, url: url === '' ? null : url },
      {
        url: t('settings.url'),
        bank_name: t('settings.bankName'),
        branch_name: t('settings.branchName'),
        branch_number: t('settings.branchNumber'),
        holder: t('settings.holder'),
        number_prefix: t('settings.numberPrefix'),
      },
    );
    if (body !== null) save.mutate(body);
  };
  return (
    <Card title={t('settings.deposit')}>
      <Typography.Paragraph type="secondary">{t('settings.fourEyesDeposit')}</Typography.Paragraph>
      <Form form={form} name="settings-deposit" layout="vertical" disabled={!editable} onFinish={submit}>
        <Form.Item label={t('settings.url')} name="url" extra={t('settings.urlHelp')}>
          <Input placeholder="https://" />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label={t('settings.bankName')} name="bank_name">
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label={t('settings.branchName')} name="branch_name">
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label={t('settings.branchNumber')} name="branch_number">
              <Input maxLength={3} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label={t('settings.accountType')} name="account_type">
              <Select
                options={[
                  { value: 'ordinary', label: t('settings.accountTypes.ordinary') },
                  { value: 'current', label: t('settings.accountTypes.current') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label={t('settings.holder')} name="holder">
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label={t('settings.numberPrefix')} name="number_prefix">
              <Input maxLength={2} />
            </Form.Item>
          </Col>
        </Row>
        {editable && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

interface ChannelValues {
  channels?: {
    name?: string;
    url?: string;
    hours?: string;
    schedule?: { days?: number[]; opens?: string; closes?: string };
  }[];
}

/** ISO weekdays 1 (Monday) … 7 (Sunday) with their short names in the operator's language. */
function weekdayOptions(locale: string) {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  return [1, 2, 3, 4, 5, 6, 7].map((iso) => ({
    value: iso,
    label: format.format(new Date(Date.UTC(2024, 0, iso))),
  }));
}

function CustomerServiceForm({
  value,
  editable,
}: {
  value: TSettings['customer_service'];
  editable: boolean;
}) {
  const { t, locale } = useLocale();
  const [form] = Form.useForm<ChannelValues>();
  const save = useSaveSetting('customer_service', form);
  const weekdays = weekdayOptions(locale);
  useEffect(() => {
    form.setFieldsValue({ channels: value });
  }, [form, value]);
  const submit = (values: ChannelValues) => {
    const channels = (values.channels ?? []).map((c) => {
      const hours = (c.hours ?? '').trim();
      const days = c.schedule?.days ?? [];
      const opens = (c.schedule?.opens ?? '').trim();
      const closes = (c.schedule?.closes ?? '').trim();
      // a schedule is sent when any part of it is filled in, so a half-filled one is refused at its field
      const scheduled = days.length > 0 || opens !== '' || closes !== '';
      return {
        name: (c.name ?? '').trim(),
        url: (c.url ?? '').trim(),
        ...(hours === '' ? {} : { hours }),
        ...(scheduled ? { schedule: { days: [...days].sort((a, b) => a - b), opens, closes } } : {}),
      };
    });
    const checked = checkForm(
      form,
      ZSettings.shape.customer_service,
      channels,
      {
        name: t('settings.channelName'),
        url: t('settings.channelUrl'),
        hours: t('settings.channelNote'),
        days: t('settings.channelDays'),
        opens: t('settings.channelOpens'),
        closes: t('settings.channelCloses'),
      },
      ['channels'],
    );
    if (checked !== null) save.mutate(checked);
  };
  return (
    <Card title={t('settings.customerService')}>
      <Form
        form={form}
        name="settings-customer-service"
        layout="vertical"
        disabled={!editable}
        onFinish={submit}
      >
        <Form.List name="channels">
          {(fields, { add, remove }) => (
            <>
              {fields.length === 0 && (
                <Typography.Paragraph type="secondary">{t('settings.noChannels')}</Typography.Paragraph>
              )}
              {fields.map((field, index) => (
                <Space key={field.key} align="baseline" wrap>
                  <Form.Item label={`${t('settings.channelName')} ${index + 1}`} name={[field.name, 'name']}>
                    <Input style={{ width: 160 }} maxLength={40} />
                  </Form.Item>
                  <Form.Item label={`${t('settings.channelUrl')} ${index + 1}`} name={[field.name, 'url']}>
                    <Input style={{ width: 280 }} placeholder="https:// / line://" />
                  </Form.Item>
                  <Form.Item
                    label={`${t('settings.channelDays')} ${index + 1}`}
                    name={[field.name, 'schedule', 'days']}
                  >
                    <Checkbox.Group options={weekdays} />
                  </Form.Item>
                  <Form.Item
                    label={`${t('settings.channelOpens')} ${index + 1}`}
                    name={[field.name, 'schedule', 'opens']}
                  >
                    <Input style={{ width: 90 }} placeholder="09:00" maxLength={5} />
                  </Form.Item>
                  <Form.Item
                    label={`${t('settings.channelCloses')} ${index + 1}`}
                    name={[field.name, 'schedule', 'closes']}
                  >
                    <Input style={{ width: 90 }} placeholder="17:00" maxLength={5} />
                  </Form.Item>
                  <Form.Item label={`${t('settings.channelNote')} ${index + 1}`} name={[field.name, 'hours']}>
                    <Input style={{ width: 220 }} maxLength={80} />
                  </Form.Item>
                  {editable && (
                    <Button
                      type="text"
                      aria-label={`${t('common.remove')} ${index + 1}`}
                      icon={<MinusCircleOutlined />}
                      onClick={() => {
                        remove(field.name);
                      }}
                    />
                  )}
                </Space>
              ))}
              {editable && fields.length < 10 && (
                <Form.Item>
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => {
                      add({ name: '', url: '', hours: '' });
                    }}
                  >
                    {t('settings.addChannel')}
                  </Button>
                </Form.Item>
              )}
            </>
          )}
        </Form.List>
        {editable && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

/** The settings parts whose every value is a whole number, each typed in one field. */
type NumberKey = 'tax' | 'loans';
/** What the fields hold: whole numbers, or null while a field is empty (the schema then refuses it). */
type NumberValues = Record<string, number | null>;

/**
 * One card of whole-number settings: a field per value, checked with the contract's schema for that part
 * before it is sent (tax and loans share it).
 */
function NumbersForm<K extends NumberKey>({
  settingKey,
  title,
  help,
  fields,
  value,
  editable,
}: {
  settingKey: K;
  title: string;
  help: string;
  fields: readonly (readonly [keyof TSettings[K] & string, string])[];
  value: TSettings[K];
  editable: boolean;
}) {
  const { t } = useLocale();
  const [form] = Form.useForm<NumberValues>();
  const save = useSaveSetting(settingKey, form);
  useEffect(() => {
    form.setFieldsValue(value);
  }, [form, value]);
  // the field names are the part's keys (checked where each form lists them), strings inside the form
  const named: readonly (readonly [string, string])[] = fields;
  const submit = (values: NumberValues) => {
    const body = checkForm(form, ZSettings.shape[settingKey], values, Object.fromEntries(fields));
    if (body !== null) save.mutate(body as TSettings[K]);
  };
  return (
    <Card title={title}>
      <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>
      <Form
        form={form}
        name={`settings-${settingKey}`}
        layout="vertical"
        disabled={!editable}
        onFinish={submit}
        initialValues={value}
      >
        <Row gutter={16}>
          {named.map(([name, label]) => (
            <Col key={name} xs={24} md={12}>
              <Form.Item label={label} name={name}>
                <InputNumber min={0} precision={0} style={{ width: 220 }} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        {editable && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

/** Tax rates (per 100,000), NISA limits and 制度信用's repayment period (ADR 0021). */
function TaxForm({ value, editable }: { value: TSettings['tax']; editable: boolean }) {
  const { t } = useLocale();
  return (
    <NumbersForm
      settingKey="tax"
      title={t('tax.title')}
      help={t('tax.pcmHelp')}
      value={value}
      editable={editable}
      fields={[
        ['national_rate_pcm', t('tax.nationalRate')],
        ['local_rate_pcm', t('tax.localRate')],
        ['nisa_annual_growth_limit_yen', t('tax.nisaAnnual')],
        ['nisa_lifetime_limit_yen', t('tax.nisaLifetime')],
        ['nisa_growth_lifetime_limit_yen', t('tax.nisaGrowthLifetime')],
        ['standard_margin_months', t('tax.standardMarginMonths')],
      ]}
    />
  );
}

/**
 * The loan settings (ADR 0028): the minimum, a first limit, four-eyes, the interest-free period and the
 * overdue days. The rates are the loan products' and their legal caps are not settings.
 */
interface FirmValues {
  name?: string;
  registration?: string;
  associations?: string;
}

/** The firm's registration, shown on the app's about section; an empty registration reads as "none". */
function FirmForm({ value, editable }: { value: TSettings['firm']; editable: boolean }) {
  const { t } = useLocale();
  const [form] = Form.useForm<FirmValues>();
  const save = useSaveSetting('firm', form);
  useEffect(() => {
    form.setFieldsValue({
      name: value.name,
      registration: value.registration ?? '',
      associations: value.associations.join('\n'),
    });
  }, [form, value]);
  const submit = (values: FirmValues) => {
    const registration = (values.registration ?? '').trim();
    const body = checkForm(
      form,
      ZSettings.shape.firm,
      {
        name: values.name ?? '',
        registration: registration === '' ? null : registration,
        associations: (values.associations ?? '')
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
      },
      {
        name: t('settings.firmName'),
        registration: t('settings.firmRegistration'),
        associations: t('settings.firmAssociations'),
      },
    );
    if (body !== null) save.mutate(body);
  };
  return (
    <Card title={t('settings.firm')}>
      <Form form={form} name="settings-firm" layout="vertical" disabled={!editable} onFinish={submit}>
        <Form.Item label={t('settings.firmName')} name="name">
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          label={t('settings.firmRegistration')}
          name="registration"
          extra={t('settings.firmRegistrationHelp')}
        >
          <Input maxLength={100} placeholder="関東財務局長（金商）第○○号" />
        </Form.Item>
        <Form.Item
          label={t('settings.firmAssociations')}
          name="associations"
          extra={t('settings.firmAssociationsHelp')}
        >
          <Input.TextArea rows={3} />
        </Form.Item>
        {editable && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

function LoansForm({ value, editable }: { value: TSettings['loans']; editable: boolean }) {
  const { t } = useLocale();
  return (
    <NumbersForm
      settingKey="loans"
      title={t('loanSettings.title')}
      help={t('loanSettings.help')}
      value={value}
      editable={editable}
      fields={[
        ['min_yen', t('loanSettings.minYen')],
        ['default_limit_yen', t('loanSettings.defaultLimitYen')],
        ['second_approval_over_yen', t('loanSettings.secondApprovalOverYen')],
        ['free_days', t('loanSettings.freeDays')],
        ['free_loans', t('loanSettings.freeLoans')],
        ['late_grace_days', t('loanSettings.lateGraceDays')],
        ['collection_days', t('loanSettings.collectionDays')],
        ['reminder_days', t('loanSettings.reminderDays')],
      ]}
    />
  );
}

/** The published settings: anyone may read them, administrators change them (each change is audited). */
export function SettingsPage() {
  const { t } = useLocale();
  const me = useMe();
  const query = useQuery(settingsQuery);
  const editable = isAdministrator(me.data);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('settings.title')}
      </Typography.Title>
      {!editable && <Alert type="info" showIcon message={t('settings.adminOnly')} />}
      {query.isPending && <Spin aria-label={t('common.loading')} />}
      {query.isError && (
        <Result
          status="error"
          title={query.error.message}
          extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
        />
      )}
      {query.data !== undefined && (
        <>
          <Proposals operatorId={me.data?.id} editable={editable} />
          <WithdrawalForm value={query.data.withdrawal} editable={editable} />
          <DepositForm value={query.data.deposit} editable={editable} />
          <CustomerServiceForm value={query.data.customer_service} editable={editable} />
          <TaxForm value={query.data.tax} editable={editable} />
          <LoansForm value={query.data.loans} editable={editable} />
          <FirmForm value={query.data.firm} editable={editable} />
        </>
      )}
    </Space>
  );
}
