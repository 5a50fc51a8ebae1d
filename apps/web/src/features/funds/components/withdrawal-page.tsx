import { zodResolver } from '@hookform/resolvers/zod';
import {
  ERRORS,
  sen,
  type Locale,
  type TBankAccount,
  type TWithdrawal,
  type TWithdrawalRules,
} from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useId, useMemo, useState } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyRefusalToField, applyServerIssues } from '@kabuto/client/server-issues';
import { formatDateTime, formatMoney, formattersFor } from '@/shared/format/format';
import { tContract } from '@/shared/i18n/i18n';
import { navigateTo } from '@/shared/navigation/nav';
import { showPasskeyFailure } from '@/shared/passkeys/support';
import { forgetStepUp, stepUp } from '@/shared/passkeys/webauthn';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { useUserInfo, userInfoKeys } from '@/shared/session/user-info-query';
import { createIdempotentAction, sendWithRetry } from '@/domains/trading/idempotent';
import { tradingKeys } from '@/domains/trading/trading-api';
import { PageLoading } from '@/shared/ui/page-loading';
import { FieldError } from '@/shared/ui/field-error';
import { RequireVerified } from '@/shared/ui/require-verified';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/overlays';
import { bankAccountsQuery } from '../api/bank-accounts';
import {
  fileWithdrawal,
  withdrawalKeys,
  withdrawalRecordsQuery,
  withdrawalRulesQuery,
} from '../api/withdrawals';
import {
  previewText,
  processingText,
  processingTimeOf,
  windowsText,
  withdrawalFormSchema,
  type WithdrawalFormInput,
  type WithdrawalFormOutput,
} from '../withdrawal-rules';
import { RecordsSection } from './records-section';
import { ReviewStatus } from './review-status';
import { useLocale } from '@/shared/i18n/use-locale';
import { dialog } from '@/shared/ui/overlays';

/**
 * /subPackages/withdrawal/withdrawal: the published rules (minimum, hours, no fee, credited within 24
 * hours), the form (amount, own bank account, transaction password) and the withdrawal records.
 */
export function WithdrawalPage() {
  return (
    <RequireVerified>
      <Withdrawal />
    </RequireVerified>
  );
}

function Withdrawal() {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data: rules } = useQuery(withdrawalRulesQuery(userId, token));
  const { data: accounts } = useQuery(bankAccountsQuery(userId, token));
  const [filed, setFiled] = useState<TWithdrawal | null>(null);
  if (rules === undefined || accounts === undefined) return <PageLoading />;
  const approved = accounts.items.filter((a) => a.status === 'approved');
  return (
    <div className="funds-page">
      <RulesCard rules={rules} />
      {filed !== null && <FiledNotice withdrawal={filed} creditHours={rules.credited_within_hours} />}
      <WithdrawalForm
        rules={rules}
        accounts={approved}
        pendingAccounts={accounts.items.some((a) => a.status === 'pending')}
        onFiled={setFiled}
      />
      <WithdrawalRecords />
    </div>
  );
}

function RulesCard({ rules }: { rules: TWithdrawalRules }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <section className="funds-card" aria-labelledby="withdrawal-rules-title" data-testid="withdrawal-rules">
      <h2 id="withdrawal-rules-title" className="funds-heading">
        {t('withdrawal.rulesTitle')}
      </h2>
      <dl className="funds-details">
        <div>
          <dt>{t('withdrawal.withdrawable')}</dt>
          <dd data-testid="withdrawable">{formatMoney(rules.withdrawable, locale)}</dd>
        </div>
        <div>
          <dt>{t('withdrawal.minimum')}</dt>
          <dd data-testid="withdrawal-minimum">{formatMoney(rules.min_amount, locale)}</dd>
        </div>
        <div>
          <dt>{t('withdrawal.fee')}</dt>
          <dd data-testid="withdrawal-fee">{t('withdrawal.free')}</dd>
        </div>
        <div>
          <dt>{t('withdrawal.hours')}</dt>
          <dd data-testid="withdrawal-hours">
            {t(rules.business_days_only ? 'withdrawal.hoursBusinessDays' : 'withdrawal.hoursEveryDay', {
              windows: windowsText(rules.windows),
            })}
          </dd>
        </div>
        <div>
          <dt>{t('withdrawal.credit')}</dt>
          <dd>{t('withdrawal.creditWithin', { hours: rules.credited_within_hours })}</dd>
        </div>
      </dl>
      <p className="funds-note" data-testid="withdrawal-preview">
        {previewText(rules, formattersFor(locale), t)}
      </p>
    </section>
  );
}

function FiledNotice({ withdrawal, creditHours }: { withdrawal: TWithdrawal; creditHours: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <section className="notice-card" role="status" data-testid="withdrawal-filed">
      <h2>{t('withdrawal.filedTitle', { amount: formatMoney(withdrawal.amount, locale) })}</h2>
      <p data-testid="withdrawal-processing">
        {processingText(
          processingTimeOf(withdrawal.process_after, withdrawal.created_at),
          formattersFor(locale),
          t,
        )}
      </p>
      <p>{t('withdrawal.creditWithin', { hours: creditHours })}</p>
    </section>
  );
}

function WithdrawalForm({
  rules,
  accounts,
  pendingAccounts,
  onFiled,
}: {
  rules: TWithdrawalRules;
  accounts: readonly TBankAccount[];
  pendingAccounts: boolean;
  onFiled: (withdrawal: TWithdrawal) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const schema = useMemo(
    () =>
      withdrawalFormSchema(
        { minAmount: rules.min_amount, withdrawable: rules.withdrawable },
        locale,
        formattersFor(locale),
        tContract,
      ),
    [rules.min_amount, rules.withdrawable, locale],
  );
  const [action] = useState(() => createIdempotentAction(fileWithdrawal));
  const [busy, setBusy] = useState(false);
  const hasTxnPassword = useUserInfo().userInfo?.has_txn_password ?? true;
  const form = useForm<WithdrawalFormInput, unknown, WithdrawalFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: {
      amount: '',
      bank_account_id: accounts.length === 1 ? (accounts[0]?.id ?? 0) : 0,
      txn_password: '',
    },
  });

  if (accounts.length === 0) {
    return (
      <section className="funds-card" data-testid="withdrawal-no-account">
        <p>{pendingAccounts ? t('withdrawal.accountPending') : t('withdrawal.noAccount')}</p>
        <Button
          block
          color="primary"
          onClick={() => {
            navigateTo(PAGE_PATHS.bankAccount);
          }}
        >
          {t('withdrawal.toBankAccount')}
        </Button>
      </section>
    );
  }

  const onSubmit = form.handleSubmit(async (values) => {
    const account = accounts.find((a) => a.id === values.bank_account_id);
    const ok = await dialog.confirm({
      title: t('withdrawal.confirmTitle'),
      content: t('withdrawal.confirmBody', {
        amount: formatMoney(sen(values.amount), locale),
        account:
          account === undefined
            ? ''
            : `${account.bank_name} ${account.branch_name} ${account.account_number}`,
      }),
      confirmText: t('withdrawal.submit'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      // a passkey holder confirms this amount to this account with the passkey (ADR 0031)
      // (without one, by an SMS code naming them, with the transaction password typed here)
      const stepUpToken = await stepUp(
        { action: 'withdrawal', amount: values.amount, bank_account_id: values.bank_account_id },
        { txn_password: values.txn_password },
      );
      const filed = await sendWithRetry(action, { ...values, step_up_token: stepUpToken }, () =>
        dialog.confirm({
          content: t('funds.retryPrompt'),
          confirmText: t('funds.retry'),
          cancelText: t('common.cancel'),
        }),
      );
      if (filed === null) return;
      forgetStepUp();
      showSuccess(t('withdrawal.filedToast'), 2000);
      onFiled(filed);
      form.reset({ amount: '', bank_account_id: values.bank_account_id, txn_password: '' });
      void client.invalidateQueries({ queryKey: withdrawalKeys.all });
      void client.invalidateQueries({ queryKey: userInfoKeys.all });
      // the request is a movement of the transaction log at once
      void client.invalidateQueries({ queryKey: tradingKeys.ledger() });
    } catch (error) {
      showPasskeyFailure(error);
      applyServerIssues(error, ['amount', 'bank_account_id', 'txn_password'], form.setError);
      // a wrong transaction password shows at its field, not only in the toast
      applyRefusalToField(error, { [ERRORS.TXN_PASSWORD_WRONG.code]: 'txn_password' }, form.setError);
    } finally {
      setBusy(false);
    }
  });

  return (
    <form
      className="form-page funds-card"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby="withdrawal-form-title"
    >
      <h2 id="withdrawal-form-title" className="funds-heading">
        {t('withdrawal.formTitle')}
      </h2>
      <TextField
        control={form.control}
        name="amount"
        label={t('withdrawal.amount')}
        placeholder={t('withdrawal.amountPlaceholder', { m: formatMoney(rules.min_amount, locale) })}
        inputMode="numeric"
        autoComplete="off"
        maxLength={16}
      />
      <AccountSelect control={form.control} accounts={accounts} />
      {!hasTxnPassword && (
        <p className="funds-reason" role="note" data-testid="no-txn-password">
          {t('withdrawal.noTxnPassword')}
        </p>
      )}
      <TextField
        control={form.control}
        name="txn_password"
        label={t('withdrawal.txnPassword')}
        placeholder={t('withdrawal.txnPasswordPlaceholder')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
      />
      <Button
        block
        fill="none"
        size="small"
        onClick={() => {
          navigateTo(PAGE_PATHS.transactionPassword);
        }}
      >
        {t('withdrawal.setTxnPassword')}
      </Button>
      <Button block color="primary" size="large" type="submit" loading={busy}>
        {t('withdrawal.submit')}
      </Button>
    </form>
  );
}

function AccountSelect({
  control,
  accounts,
}: {
  control: Control<WithdrawalFormInput, unknown, WithdrawalFormOutput>;
  accounts: readonly TBankAccount[];
}) {
  const { t } = useTranslation();
  const id = useId();
  const { field, fieldState } = useController({ control, name: 'bank_account_id' });
  const message = fieldState.error?.message;
  const value: unknown = field.value;
  return (
    <div className={`text-field${message === undefined ? '' : ' text-field--invalid'}`}>
      <label className="text-field__label" htmlFor={id}>
        {t('withdrawal.bankAccount')}
      </label>
      <select
        id={id}
        ref={(element) => {
          field.ref(element);
        }}
        className="funds-select"
        name={field.name}
        value={typeof value === 'number' ? String(value) : '0'}
        onChange={(event) => {
          field.onChange(Number(event.target.value));
        }}
        onBlur={field.onBlur}
        aria-invalid={message !== undefined}
        aria-describedby={message === undefined ? undefined : `${id}-error`}
      >
        <option value="0">{t('withdrawal.chooseAccount')}</option>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.bank_name} {a.branch_name} {a.account_number} ({a.holder_name})
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

function WithdrawalRecords() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const { data, isPending } = useQuery(withdrawalRecordsQuery(userId, token));
  return (
    <RecordsSection
      title={t('withdrawal.records')}
      name="withdrawal-records"
      items={data?.items}
      isPending={isPending}
      render={(w) => <WithdrawalRecord key={w.id} withdrawal={w} locale={locale} />}
    />
  );
}

function WithdrawalRecord({ withdrawal, locale }: { withdrawal: TWithdrawal; locale: Locale }) {
  const { t } = useTranslation();
  const time = processingTimeOf(withdrawal.process_after, withdrawal.created_at);
  return (
    <li className="funds-card" data-testid="withdrawal-record" data-status={withdrawal.status}>
      <div className="funds-card__head">
        <strong data-testid="record-amount">{formatMoney(withdrawal.amount, locale)}</strong>
        <ReviewStatus status={withdrawal.status} />
      </div>
      <dl className="funds-details">
        <div>
          <dt>{t('withdrawal.bankAccount')}</dt>
          <dd>
            {withdrawal.bank_account.bank_name} {withdrawal.bank_account.branch_name}{' '}
            {withdrawal.bank_account.account_number}
          </dd>
        </div>
        <div>
          <dt>{t('funds.filedAt')}</dt>
          <dd>{formatDateTime(withdrawal.created_at, locale)}</dd>
        </div>
        {withdrawal.status === 'pending' && (
          <div>
            <dt>{t('withdrawal.processing')}</dt>
            <dd data-testid="record-processing">{processingText(time, formattersFor(locale), t)}</dd>
          </div>
        )}
        {withdrawal.reviewed_at !== null && (
          <div>
            <dt>{t('funds.reviewedAt')}</dt>
            <dd>{formatDateTime(withdrawal.reviewed_at, locale)}</dd>
          </div>
        )}
      </dl>
      {withdrawal.status === 'rejected' && (
        <p className="funds-reason" data-testid="record-reason">
          <strong>{t('funds.reason')}:</strong> {withdrawal.reason ?? '—'}
        </p>
      )}
    </li>
  );
}
