import { zodResolver } from '@hookform/resolvers/zod';
import { sen, type Locale, type TLoan, type TLoanOverview } from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox } from 'antd-mobile';
import { useState } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { createIdempotentAction, sendWithRetry } from '@/domains/trading/idempotent';
import { formatDate, formatMoney } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo, switchTab } from '@/shared/navigation/nav';
import { PAGE_PATHS, TAB_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { FieldError } from '@/shared/ui/field-error';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireVerified } from '@/shared/ui/require-verified';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/overlays';
import { applyForLoan, loanKeys, loanOverviewQuery, loanQuoteQuery } from '../api/loans';
import { amountOf, loanFormSchema, type LoanFormInput, type LoanFormOutput } from '../form';
import { percent } from '../rates';
import { dialog } from '@/shared/ui/overlays';

/**
 * /subPackages/index/rongzi/rongzi: the credit loan (issue 18). Limits (available, under application, total
 * to repay), the calculator (rate, interest a day, due date, total to repay, the late-charge rule, before
 * applying), and the application (amount, the applicant's details, income and borrowing elsewhere for the
 * total-volume rule, the loan agreement ticked). Every figure comes from the server.
 */
export function LoansPage() {
  return (
    <RequireVerified>
      <Loans />
    </RequireVerified>
  );
}

function Loans() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data: overview } = useQuery(loanOverviewQuery(userId, token));
  const [applied, setApplied] = useState<TLoan | null>(null);
  if (overview === undefined) return <PageLoading />;
  return (
    <div className="funds-page" data-testid="loans-page">
      <LimitsCard overview={overview} />
      {applied !== null ? (
        <AppliedNotice loan={applied} />
      ) : overview.blocked !== null ? (
        <section className="notice-card" role="status" data-testid="loans-blocked">
          <p>{t(`loans.blocked.${overview.blocked}`)}</p>
          <NextActions />
        </section>
      ) : (
        <ApplicationForm overview={overview} onApplied={setApplied} />
      )}
    </div>
  );
}

function LimitsCard({ overview }: { overview: TLoanOverview }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <section className="funds-card" aria-labelledby="loan-limits-title" data-testid="loan-limits">
      <h2 id="loan-limits-title" className="funds-heading">
        {t('loans.limitsTitle')}
      </h2>
      <dl className="funds-details">
        <div>
          <dt>{t('loans.available')}</dt>
          <dd data-testid="loan-available">{formatMoney(overview.available, locale)}</dd>
        </div>
        <div>
          <dt>{t('loans.underApplication')}</dt>
          <dd data-testid="loan-under-application">{formatMoney(overview.under_application, locale)}</dd>
        </div>
        <div>
          <dt>{t('loans.totalToRepay')}</dt>
          <dd data-testid="loan-total-to-repay">{formatMoney(overview.total_to_repay, locale)}</dd>
        </div>
      </dl>
      {overview.product !== null && (
        <p className="funds-note" data-testid="loan-terms">
          {t('loans.termsLine', {
            rate: percent(overview.product.rate_bp, locale),
            days: overview.product.term_days,
            late: percent(overview.product.late_rate_bp, locale),
            grace: overview.policy.late_grace_days,
          })}
        </p>
      )}
      <p className="funds-note" data-testid="loan-free">
        {overview.free_until === null
          ? t('loans.freeNone', { days: overview.policy.free_days, loans: overview.policy.free_loans })
          : t('loans.freeUntil', {
              date: formatDate(overview.free_until, locale),
              left: overview.free_loans_left,
            })}
      </p>
      <Button
        size="small"
        fill="outline"
        onClick={() => {
          navigateTo(PAGE_PATHS.loanRecords);
        }}
      >
        {t('loans.toRecords')}
      </Button>
    </section>
  );
}

/** The calculator: what the amount typed would cost, as the server would lend it today. */
function Calculator({ amountText, locale }: { amountText: string; locale: Locale }) {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const amount = amountOf(amountText);
  const { data: quote, isError } = useQuery(loanQuoteQuery(userId, token, amount));
  if (amount === null) return <p className="funds-note">{t('loans.calculatorHint')}</p>;
  if (isError || quote === undefined) return null;
  return (
    <dl className="funds-details" data-testid="loan-calculator" aria-live="polite">
      <div>
        <dt>{t('loans.rate')}</dt>
        <dd data-testid="quote-rate">
          {t('loans.rateValue', { rate: percent(quote.rate_bp, locale), cap: percent(quote.cap_bp, locale) })}
        </dd>
      </div>
      <div>
        <dt>{t('loans.interestPerDay')}</dt>
        <dd data-testid="quote-per-day">
          {quote.free_until === null
            ? formatMoney(quote.interest_per_day, locale)
            : t('loans.freeThen', {
                date: formatDate(quote.free_until, locale),
                amount: formatMoney(quote.interest_per_day, locale),
              })}
        </dd>
      </div>
      <div>
        <dt>{t('loans.dueDate')}</dt>
        <dd data-testid="quote-due">{formatDate(quote.due_on, locale)}</dd>
      </div>
      <div>
        <dt>{t('loans.totalAtDue')}</dt>
        <dd data-testid="quote-total">{formatMoney(quote.total_at_due, locale)}</dd>
      </div>
      <div>
        <dt>{t('loans.lateRule')}</dt>
        <dd data-testid="quote-late">
          {t('loans.lateRuleValue', {
            date: formatDate(quote.late_from, locale),
            rate: percent(quote.late_rate_bp, locale),
            days: quote.collection_days,
          })}
        </dd>
      </div>
    </dl>
  );
}

function ApplicationForm({
  overview,
  onApplied,
}: {
  overview: TLoanOverview;
  onApplied: (l: TLoan) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const [action] = useState(() => createIdempotentAction(applyForLoan));
  const [busy, setBusy] = useState(false);
  const form = useForm<LoanFormInput, unknown, LoanFormOutput>({
    resolver: zodResolver(loanFormSchema),
    defaultValues: {
      amount: '',
      full_name: '',
      id_number: '',
      address: '',
      phone: '',
      email: '',
      annual_income_yen: '',
      other_borrowing_yen: '0',
      agree: false,
    },
  });
  const amountText = useWatch({ control: form.control, name: 'amount' });
  const agree = useController({ control: form.control, name: 'agree' });
  const min = overview.product?.min ?? overview.policy.min;

  const onSubmit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      const loan = await sendWithRetry(action, values, () =>
        dialog.confirm({
          content: t('loans.retryPrompt'),
          confirmText: t('loans.retry'),
          cancelText: t('common.cancel'),
        }),
      );
      if (loan === null) return;
      showSuccess(t('loans.appliedToast'), 2000);
      onApplied(loan);
      void client.invalidateQueries({ queryKey: loanKeys.all });
    } catch (error) {
      applyServerIssues(
        error,
        [
          'amount',
          'full_name',
          'id_number',
          'address',
          'phone',
          'email',
          'annual_income_yen',
          'other_borrowing_yen',
          'agree',
        ],
        form.setError,
      );
    } finally {
      setBusy(false);
    }
  });

  return (
    <form
      className="funds-card"
      aria-labelledby="loan-form-title"
      data-testid="loan-form"
      onSubmit={(e) => {
        void onSubmit(e);
      }}
      noValidate
    >
      <h2 id="loan-form-title" className="funds-heading">
        {t('loans.formTitle')}
      </h2>
      <TextField
        control={form.control}
        name="amount"
        label={t('loans.amount')}
        placeholder={t('loans.amountPlaceholder', { m: formatMoney(min, locale) })}
        inputMode="numeric"
      />
      <Calculator amountText={amountText} locale={locale} />
      <TextField control={form.control} name="full_name" label={t('loans.fullName')} autoComplete="name" />
      <TextField control={form.control} name="id_number" label={t('loans.idNumber')} />
      <TextField
        control={form.control}
        name="address"
        label={t('loans.address')}
        autoComplete="street-address"
      />
      <TextField
        control={form.control}
        name="phone"
        label={t('loans.phone')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
      />
      <TextField control={form.control} name="email" label={t('loans.email')} autoComplete="email" />
      <TextField
        control={form.control}
        name="annual_income_yen"
        label={t('loans.annualIncome')}
        inputMode="numeric"
      />
      <TextField
        control={form.control}
        name="other_borrowing_yen"
        label={t('loans.otherBorrowing')}
        inputMode="numeric"
      />
      <p className="funds-note">{t('loans.totalVolumeNote')}</p>
      <div className="loan-agree">
        <Checkbox
          checked={agree.field.value}
          onChange={(checked) => {
            agree.field.onChange(checked);
          }}
          aria-describedby={agree.fieldState.error ? 'loan-agree-error' : undefined}
          data-testid="loan-agree"
        >
          {t('loans.agreeLabel')}
        </Checkbox>{' '}
        <a
          href={`#${PAGE_PATHS.loanAgreement}`}
          onClick={(e) => {
            e.preventDefault();
            navigateTo(PAGE_PATHS.loanAgreement);
          }}
        >
          {t('loans.agreementLink')}
        </a>
        <FieldError id="loan-agree-error" message={agree.fieldState.error?.message} />
      </div>
      <Button block color="primary" type="submit" loading={busy} data-testid="loan-submit">
        {t('loans.submit')}
      </Button>
    </form>
  );
}

function AppliedNotice({ loan }: { loan: TLoan }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <section className="notice-card" role="status" data-testid="loan-applied">
      <h2>{t('loans.appliedTitle', { amount: formatMoney(sen(loan.amount), locale) })}</h2>
      <p>{t('loans.appliedBody')}</p>
      <NextActions />
    </section>
  );
}

/** After a result: see the records, contact customer service, or return home. */
export function NextActions() {
  const { t } = useTranslation();
  return (
    <div className="loan-actions">
      <Button
        size="small"
        onClick={() => {
          navigateTo(PAGE_PATHS.loanRecords);
        }}
      >
        {t('loans.toRecords')}
      </Button>
      <Button
        size="small"
        onClick={() => {
          navigateTo(PAGE_PATHS.customerService);
        }}
      >
        {t('loans.contactService')}
      </Button>
      <Button
        size="small"
        onClick={() => {
          switchTab(TAB_PATHS.home);
        }}
      >
        {t('loans.returnHome')}
      </Button>
    </div>
  );
}
