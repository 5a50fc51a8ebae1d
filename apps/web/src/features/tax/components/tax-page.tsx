import {
  sen,
  type Locale,
  type TNisaQuota,
  type TTaxAccountSummary,
  type TTaxReport,
  type TaxAccount,
} from '@kabuto/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '@/domains/trading/trading-api';
import { formatDate, formatMoney, formatSignedMoney } from '@/shared/format/format';
import { formatShares } from '@/shared/format/price';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { Segmented } from '@/shared/ui/segmented';
import { showSuccess } from '@/shared/ui/overlays';
import { downloadReport, nisaQuery, reportQuery, summaryQuery } from '../api/tax-queries';
import '../tax.css';

/** The tax year now: the calendar year in Tokyo. */
const tokyoYear = (now: Date) => new Date(now.getTime() + 9 * 3_600_000).getUTCFullYear();

/**
 * /subPackages/tax/tax: per account the year's realized gain and the tax withheld, the NISA quota, and the
 * annual trade report (年間取引報告書) of a year and account, printable and as CSV (ADR 0021).
 */
export function TaxPage() {
  return (
    <RequireLogin>
      <Tax />
    </RequireLogin>
  );
}

function Tax() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const thisYear = tokyoYear(new Date());
  const [year, setYear] = useState(thisYear);
  const [account, setAccount] = useState<TaxAccount>('specific');
  const summary = useQuery(summaryQuery(userId, token, year));
  const accounts = summary.data?.accounts ?? [];
  const hasNisa = accounts.some((a) => a.account === 'nisa');
  return (
    <div className="tax-page">
      <div className="tax-page__controls">
        <Segmented
          label={t('tax.year')}
          value={year}
          options={[thisYear - 1, thisYear].map((y) => ({ value: y, label: String(y) }))}
          onChange={setYear}
          testId="tax-year"
        />
      </div>
      <section className="tax-card" aria-labelledby="tax-summary-title" data-testid="tax-summary">
        <h2 id="tax-summary-title" className="tax-card__title">
          {t('tax.summaryTitle', { year })}
        </h2>
        {summary.isPending ? (
          <PageLoading />
        ) : (
          accounts.map((a) => <AccountSummary key={a.account} summary={a} locale={locale} />)
        )}
      </section>
      {hasNisa && <NisaQuota userId={userId} token={token} locale={locale} />}
      <section className="tax-card tax-report" aria-labelledby="tax-report-title" data-testid="tax-report">
        <h2 id="tax-report-title" className="tax-card__title">
          {t('tax.reportTitle')} {year}
        </h2>
        <div className="tax-page__controls">
          <Segmented
            label={t('tax.account')}
            value={account}
            options={(accounts.length > 0 ? accounts.map((a) => a.account) : (['specific'] as const)).map(
              (a) => ({ value: a, label: t(`tax.accounts.${a}`) }),
            )}
            onChange={setAccount}
            testId="tax-account"
          />
        </div>
        <Report year={year} account={account} userId={userId} token={token} locale={locale} />
      </section>
    </div>
  );
}

function AccountSummary({ summary, locale }: { summary: TTaxAccountSummary; locale: Locale }) {
  const { t } = useTranslation();
  const note =
    summary.account === 'nisa'
      ? t('tax.taxFree')
      : summary.withholding
        ? t('tax.withholding')
        : t('tax.noWithholding');
  return (
    <div className="tax-account" data-testid={`tax-account-${summary.account}`}>
      <h3 className="tax-account__name">{t(`tax.accounts.${summary.account}`)}</h3>
      <p className="tax-account__note">{note}</p>
      <dl className="tax-grid">
        <dt>{t('tax.realizedGain')}</dt>
        <dd data-testid="tax-realized">{formatSignedMoney(summary.realized_gain, locale)}</dd>
        {summary.withholding && (
          <>
            <dt>{t('tax.withheldNational')}</dt>
            <dd data-testid="tax-withheld-national">{formatMoney(summary.withheld_national, locale)}</dd>
            <dt>{t('tax.withheldLocal')}</dt>
            <dd data-testid="tax-withheld-local">{formatMoney(summary.withheld_local, locale)}</dd>
          </>
        )}
      </dl>
    </div>
  );
}

function NisaQuota({
  userId,
  token,
  locale,
}: {
  userId: number | null;
  token: string | null;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const { data } = useQuery(nisaQuery(userId, token));
  if (!data) return null;
  return (
    <section className="tax-card" aria-labelledby="tax-nisa-title" data-testid="tax-nisa">
      <h2 id="tax-nisa-title" className="tax-card__title">
        {t('tax.nisaTitle')} {data.year}
      </h2>
      <QuotaBar
        label={t('tax.annual')}
        limit={data.annual_limit}
        used={data.annual_used}
        remaining={data.annual_remaining}
        locale={locale}
        testId="nisa-annual"
      />
      <QuotaBar
        label={t('tax.lifetime', { growth: formatMoney(data.growth_lifetime_limit, locale) })}
        limit={data.lifetime_limit}
        used={data.lifetime_used}
        remaining={data.lifetime_remaining}
        locale={locale}
        testId="nisa-lifetime"
      />
      <dl className="tax-grid">
        <dt>{t('tax.returning')}</dt>
        <dd data-testid="nisa-returning">{formatMoney(data.returning_next_year, locale)}</dd>
      </dl>
      <p className="tax-account__note">{t('tax.quotaNote')}</p>
    </section>
  );
}

function QuotaBar(props: {
  label: string;
  limit: TNisaQuota['annual_limit'];
  used: TNisaQuota['annual_used'];
  remaining: TNisaQuota['annual_remaining'];
  locale: Locale;
  testId: string;
}) {
  const { t } = useTranslation();
  const percent = props.limit > 0 ? Math.min(100, Math.floor((props.used * 100) / props.limit)) : 0;
  return (
    <div className="tax-quota" data-testid={props.testId}>
      <div className="tax-quota__label">
        {props.label}: {formatMoney(props.limit, props.locale)}
      </div>
      <div
        className="tax-quota__bar"
        role="meter"
        aria-label={props.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <dl className="tax-grid">
        <dt>{t('tax.used')}</dt>
        <dd data-testid={`${props.testId}-used`}>{formatMoney(props.used, props.locale)}</dd>
        <dt>{t('tax.remaining')}</dt>
        <dd data-testid={`${props.testId}-remaining`}>{formatMoney(props.remaining, props.locale)}</dd>
      </dl>
    </div>
  );
}

function Report(props: {
  year: number;
  account: TaxAccount;
  userId: number | null;
  token: string | null;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const { data, isPending } = useQuery(reportQuery(props.userId, props.token, props.year, props.account));
  const download = useMutation({
    mutationFn: () => downloadReport(props.year, props.account),
    onSuccess: (file) => {
      saveBlob(file.blob, file.filename ?? `kabuto-annual-trade-report-${props.year}-${props.account}.csv`);
      showSuccess(t('tax.downloaded'));
    },
  });
  if (isPending) return <PageLoading />;
  return (
    <>
      {data === undefined || data.lines.length === 0 ? (
        <EmptyState description={t('tax.noLines')} />
      ) : (
        <ReportTable report={data} locale={props.locale} />
      )}
      <div className="tax-report__actions">
        <Button
          size="small"
          onClick={() => {
            window.print();
          }}
        >
          {t('tax.print')}
        </Button>
        <Button
          size="small"
          color="primary"
          loading={download.isPending}
          onClick={() => {
            download.mutate();
          }}
          data-testid="tax-download"
        >
          {t('tax.downloadCsv')}
        </Button>
      </div>
    </>
  );
}

function ReportTable({ report, locale }: { report: TTaxReport; locale: Locale }) {
  const { t } = useTranslation();
  const money = (v: number) => formatMoney(sen(v), locale);
  return (
    // focusable, so that a keyboard can scroll the wide table sideways (axe: scrollable-region-focusable)
    <div className="tax-table-wrap" tabIndex={0} role="region" aria-label={t('tax.reportTitle')}>
      <table className="tax-table" data-testid="tax-report-table">
        <thead>
          <tr>
            <th scope="col">{t('tax.date')}</th>
            <th scope="col">{t('tax.stock')}</th>
            <th scope="col">{t('tax.quantity')}</th>
            <th scope="col">{t('tax.proceeds')}</th>
            <th scope="col">{t('tax.cost')}</th>
            <th scope="col">{t('tax.gain')}</th>
          </tr>
        </thead>
        <tbody>
          {report.lines.map((l, i) => (
            <tr key={`${l.date}-${l.code}-${String(i)}`}>
              <td>{formatDate(l.date, locale)}</td>
              <td>
                {l.code} {l.name}
              </td>
              <td>{formatShares(l.quantity, locale)}</td>
              <td>{money(l.proceeds)}</td>
              <td>{money(l.cost)}</td>
              <td>{formatSignedMoney(l.gain, locale)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {t('tax.total')}
            </th>
            <td>{money(report.totals.proceeds)}</td>
            <td>{money(report.totals.cost)}</td>
            <td data-testid="tax-report-gain">{formatSignedMoney(report.totals.gain, locale)}</td>
          </tr>
          {report.account === 'specific' && (
            <tr>
              <th scope="row" colSpan={3}>
                {t('tax.withheld')}
              </th>
              <td colSpan={3} data-testid="tax-report-withheld">
                {t('tax.withheldNational')} {money(report.withheld.national)} / {t('tax.withheldLocal')}{' '}
                {money(report.withheld.local)}
              </td>
            </tr>
          )}
        </tfoot>
      </table>
    </div>
  );
}
