import type { TLoan } from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createIdempotentAction, sendWithRetry } from '@/domains/trading/idempotent';
import { tradingKeys } from '@/domains/trading/trading-api';
import { formatDate, formatDateTime, formatMoney } from '@/shared/format/format';
import { tContract } from '@/shared/i18n/i18n';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { userInfoKeys } from '@/shared/session/user-info-query';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireVerified } from '@/shared/ui/require-verified';
import { showSuccess } from '@/shared/ui/overlays';
import { loanKeys, loanRecordsQuery, repayLoan } from '../api/loans';
import { percent } from '../rates';
import { NextActions } from './loans-page';
import { dialog } from '@/shared/ui/overlays';

/**
 * /subPackages/index/rongzi/record: every loan with its state (the specification's six, and collection),
 * amount, disbursed amount, amount to repay, loan time, due date, repayment time and rejection reason; the
 * total to repay across loans; repayment as one lump sum after a confirm prompt.
 */
export function LoanRecordsPage() {
  return (
    <RequireVerified>
      <LoanRecords />
    </RequireVerified>
  );
}

const OWED = new Set(['repaying', 'overdue', 'collection']);

function LoanRecords() {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data } = useQuery(loanRecordsQuery(userId, token));
  if (data === undefined) return <PageLoading />;
  return (
    <div className="funds-page" data-testid="loan-records">
      <section className="funds-card">
        <dl className="funds-details">
          <div>
            <dt>{t('loans.totalToRepay')}</dt>
            <dd data-testid="records-total">{formatMoney(data.total_to_repay, locale)}</dd>
          </div>
        </dl>
        <Button
          size="small"
          color="primary"
          onClick={() => {
            navigateTo(PAGE_PATHS.loans);
          }}
        >
          {t('loans.applyAgain')}
        </Button>
      </section>
      {data.items.length === 0 ? (
        <p className="funds-note">{t('common.noData')}</p>
      ) : (
        <ul className="loan-list">
          {data.items.map((loan) => (
            <LoanItem key={loan.id} loan={loan} />
          ))}
        </ul>
      )}
    </div>
  );
}

function LoanItem({ loan }: { loan: TLoan }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const [action] = useState(() => createIdempotentAction(repayLoan));
  const [busy, setBusy] = useState(false);
  const row = (label: string, value: string, id?: string) => (
    <div>
      <dt>{label}</dt>
      <dd data-testid={id}>{value}</dd>
    </div>
  );
  const repay = async () => {
    const ok = await dialog.confirm({
      title: t('loans.repayConfirmTitle'),
      content: t('loans.repayConfirmBody', {
        amount: formatMoney(loan.amount_to_repay, locale),
        principal: formatMoney(loan.disbursed_amount ?? loan.amount, locale),
        interest: formatMoney(loan.interest, locale),
        late: formatMoney(loan.late_charges, locale),
      }),
      confirmText: t('loans.repay'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      const done = await sendWithRetry(action, { id: loan.id, amount: loan.amount_to_repay }, () =>
        dialog.confirm({
          content: t('loans.retryPrompt'),
          confirmText: t('loans.retry'),
          cancelText: t('common.cancel'),
        }),
      );
      if (done === null) return;
      showSuccess(t('loans.repaidToast'), 2000);
    } catch {
      // the failure was shown by the API client's toast (insufficient cash, amount changed at midnight...)
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey: loanKeys.all });
      void client.invalidateQueries({ queryKey: userInfoKeys.all });
      void client.invalidateQueries({ queryKey: tradingKeys.ledger() });
    }
  };
  return (
    <li className="funds-card" data-testid={`loan-${loan.id}`}>
      <h3 className="funds-heading">
        <span data-testid="loan-status">{t(`loans.status.${loan.status}`)}</span>
      </h3>
      <dl className="funds-details">
        {row(t('loans.amount'), formatMoney(loan.amount, locale))}
        {loan.disbursed_amount !== null &&
          row(t('loans.disbursedAmount'), formatMoney(loan.disbursed_amount, locale), 'loan-disbursed')}
        {row(t('loans.amountToRepay'), formatMoney(loan.amount_to_repay, locale), 'loan-to-repay')}
        {loan.rate_bp !== null && row(t('loans.rate'), percent(loan.rate_bp, locale))}
        {loan.disbursed_amount !== null &&
          row(t('loans.interest'), formatMoney(loan.interest, locale), 'loan-interest')}
        {loan.late_charges > 0 && row(t('loans.lateCharges'), formatMoney(loan.late_charges, locale))}
        {row(t('loans.appliedAt'), formatDateTime(loan.applied_at, locale))}
        {loan.loan_time !== null && row(t('loans.loanTime'), formatDateTime(loan.loan_time, locale))}
        {loan.due_date !== null && row(t('loans.dueDate'), formatDate(loan.due_date, locale), 'loan-due')}
        {loan.repayment_time !== null &&
          row(t('loans.repaymentTime'), formatDateTime(loan.repayment_time, locale), 'loan-repaid-at')}
        {loan.repaid_amount !== null && row(t('loans.repaidAmount'), formatMoney(loan.repaid_amount, locale))}
        {loan.reject_reason_code !== null &&
          row(
            t('loans.rejectReason'),
            `${tContract(`loans.rejectReasons.${loan.reject_reason_code}`)}${loan.reject_reason ? `: ${loan.reject_reason}` : ''}`,
            'loan-reject-reason',
          )}
      </dl>
      {OWED.has(loan.status) && (
        <Button block color="primary" loading={busy} onClick={() => void repay()} data-testid="loan-repay">
          {t('loans.repay')}
        </Button>
      )}
      {(loan.status === 'rejected' || loan.status === 'repaid') && <NextActions />}
    </li>
  );
}
