import { zodResolver } from '@hookform/resolvers/zod';
import type { Locale, TDeposit, TDepositAccount } from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useId, useMemo, useState } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { formatDate, formatDateTime, formatMoney } from '@/shared/format/format';
import { navigateTo } from '@/shared/navigation/nav';
import { webviewUrl } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { userInfoKeys } from '@/shared/session/user-info-query';
import { createIdempotentAction, sendWithRetry } from '@/domains/trading/idempotent';
import { PageLoading } from '@/shared/ui/page-loading';
import { DateField } from '@/shared/ui/date-field';
import { FieldError } from '@/shared/ui/field-error';
import { RequireVerified } from '@/shared/ui/require-verified';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/overlays';
import { amountFieldSchema } from '../amount';
import {
  depositAccountQuery,
  depositKeys,
  depositRecordsQuery,
  depositUrlQuery,
  fileDeposit,
} from '../api/deposits';
import { tokyoToday } from '../tokyo-date';
import { CopyButton } from './copy-value';
import { PhotoUpload } from './photo-upload';
import { RecordsSection } from './records-section';
import { ReviewStatus } from './review-status';
import { useLocale } from '@/shared/i18n/use-locale';
import { dialog } from '@/shared/ui/overlays';

/**
 * /subPackages/recharge/recharge: the user's own virtual account for bank transfers, the fraud warning,
 * the optional deposit URL, the deposit notice form and the deposit records.
 */
export function RechargePage() {
  return (
    <RequireVerified>
      <Recharge />
    </RequireVerified>
  );
}

function Recharge() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data: account } = useQuery(depositAccountQuery(userId, token));
  const { data: czhi } = useQuery(depositUrlQuery(userId, token));
  const depositUrl = czhi?.url ?? account?.deposit_url ?? null;
  return (
    <div className="funds-page">
      <aside className="fraud-warning" role="note" data-testid="fraud-warning">
        {t('recharge.fraudWarning')}
      </aside>
      {account === undefined ? <PageLoading /> : <VirtualAccount account={account} />}
      {depositUrl !== null && (
        <Button
          block
          color="primary"
          fill="outline"
          onClick={() => {
            navigateTo(webviewUrl(depositUrl));
          }}
        >
          {t('recharge.openDepositUrl')}
        </Button>
      )}
      <DepositForm />
      <DepositRecords />
    </div>
  );
}

function VirtualAccount({ account }: { account: TDepositAccount }) {
  const { t } = useTranslation();
  const rows: [string, string, string][] = [
    [
      'bank',
      t('recharge.bankName'),
      account.bank_code === null ? account.bank_name : `${account.bank_name} (${account.bank_code})`,
    ],
    ['branch', t('recharge.branch'), `${account.branch_name} (${account.branch_number})`],
    ['type', t('recharge.accountType'), t(`recharge.accountTypes.${account.account_type}`)],
    ['number', t('recharge.accountNumber'), account.account_number],
    ['holder', t('recharge.holder'), account.holder_kana ?? account.holder],
  ];
  // What a Japanese bank's transfer screen searches by: the Zengin kana of bank and branch.
  const kana =
    account.bank_kana === null
      ? null
      : t('banking.transferKana', { bank: account.bank_kana, branch: account.branch_kana ?? '' });
  return (
    <section className="funds-card" aria-labelledby="virtual-account-title" data-testid="virtual-account">
      <h2 id="virtual-account-title" className="funds-heading">
        {t('recharge.accountTitle')}
      </h2>
      <p className="funds-note">{t('recharge.accountIntro')}</p>
      {kana !== null && (
        <p className="funds-note" data-testid="virtual-account-kana">
          {kana}
        </p>
      )}
      <dl className="funds-details">
        {rows.map(([key, label, value]) => (
          <div key={key} className="funds-details__copy">
            <dt>{label}</dt>
            {/* the copy button inside the dd: a dl's groups hold only dt and dd (axe: definition-list) */}
            <dd>
              <span data-testid={`virtual-account-${key}`}>{value}</span>
              {key !== 'type' && (
                <CopyButton
                  value={
                    key === 'branch'
                      ? account.branch_number
                      : key === 'bank'
                        ? (account.bank_code ?? account.bank_name)
                        : value
                  }
                  label={label}
                />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function depositFormSchema(locale: Locale) {
  return z.object({
    amount: amountFieldSchema(locale),
    transfer_date: z.iso.date({ error: 'validation.transferDateRequired' }),
  });
}
type DepositFormInput = z.input<ReturnType<typeof depositFormSchema>>;
type DepositFormOutput = z.output<ReturnType<typeof depositFormSchema>>;

function DepositForm() {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const schema = useMemo(() => depositFormSchema(locale), [locale]);
  const [action] = useState(() => createIdempotentAction(fileDeposit));
  const [proofId, setProofId] = useState('');
  const [proofKey, setProofKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const form = useForm<DepositFormInput, unknown, DepositFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { amount: '', transfer_date: tokyoToday() },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      const filed = await sendWithRetry(
        action,
        {
          amount: values.amount,
          transfer_date: values.transfer_date,
          ...(proofId === '' ? {} : { proof_upload_id: proofId }),
        },
        () =>
          dialog.confirm({
            content: t('funds.retryPrompt'),
            confirmText: t('funds.retry'),
            cancelText: t('common.cancel'),
          }),
      );
      if (filed === null) return;
      showSuccess(t('recharge.filed'), 2000);
      form.reset({ amount: '', transfer_date: tokyoToday() });
      setProofId('');
      setProofKey((k) => k + 1);
      void client.invalidateQueries({ queryKey: depositKeys.all });
      void client.invalidateQueries({ queryKey: userInfoKeys.all });
    } catch (error) {
      applyServerIssues(error, ['amount', 'transfer_date'], form.setError);
    } finally {
      setBusy(false);
    }
  });
  return (
    <form
      className="form-page funds-card"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby="deposit-form-title"
    >
      <h2 id="deposit-form-title" className="funds-heading">
        {t('recharge.formTitle')}
      </h2>
      <p className="funds-note">{t('recharge.formIntro')}</p>
      <TextField
        control={form.control}
        name="amount"
        label={t('recharge.amount')}
        placeholder={t('recharge.amountPlaceholder')}
        inputMode="numeric"
        autoComplete="off"
        maxLength={16}
      />
      <TransferDateField control={form.control} label={t('recharge.transferDate')} />
      <PhotoUpload
        key={proofKey}
        label={t('recharge.proof')}
        purpose="deposit_proof"
        value={proofId}
        onChange={setProofId}
        optional
        testId="photo-deposit_proof"
      />
      <Button block color="primary" size="large" type="submit" loading={busy}>
        {t('recharge.submit')}
      </Button>
    </form>
  );
}

function TransferDateField({
  control,
  label,
}: {
  control: Control<DepositFormInput, unknown, DepositFormOutput>;
  label: string;
}) {
  const id = useId();
  const { field, fieldState } = useController({ control, name: 'transfer_date' });
  const message = fieldState.error?.message;
  return (
    <div className={`text-field${message === undefined ? '' : ' text-field--invalid'}`}>
      <DateField
        label={label}
        value={field.value}
        max={tokyoToday()}
        onChange={field.onChange}
        onBlur={field.onBlur}
        buttonRef={field.ref}
        invalid={message !== undefined}
        describedBy={message === undefined ? undefined : `${id}-error`}
        testId="transfer-date"
      />
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

function DepositRecords() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const { data, isPending } = useQuery(depositRecordsQuery(userId, token));
  return (
    <RecordsSection
      title={t('recharge.records')}
      name="deposit-records"
      items={data?.items}
      isPending={isPending}
      render={(d) => <DepositRecord key={d.id} deposit={d} locale={locale} />}
    />
  );
}

function DepositRecord({ deposit, locale }: { deposit: TDeposit; locale: Locale }) {
  const { t } = useTranslation();
  return (
    <li className="funds-card" data-testid="deposit-record" data-status={deposit.status}>
      <div className="funds-card__head">
        <strong data-testid="record-amount">{formatMoney(deposit.amount, locale)}</strong>
        <ReviewStatus status={deposit.status} />
      </div>
      <dl className="funds-details">
        <div>
          <dt>{t('recharge.transferDate')}</dt>
          <dd>{formatDate(deposit.transfer_date, locale)}</dd>
        </div>
        <div>
          <dt>{t('funds.filedAt')}</dt>
          <dd>{formatDateTime(deposit.created_at, locale)}</dd>
        </div>
        {deposit.reviewed_at !== null && (
          <div>
            <dt>{t('funds.reviewedAt')}</dt>
            <dd>{formatDateTime(deposit.reviewed_at, locale)}</dd>
          </div>
        )}
      </dl>
      {deposit.status === 'rejected' && (
        <p className="funds-reason" data-testid="record-reason">
          <strong>{t('funds.reason')}:</strong> {deposit.reason ?? '—'}
        </p>
      )}
    </li>
  );
}
