import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/format/format';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { bankAccountLogQuery } from '../api/bank-accounts';
import { useLocale } from '@/shared/i18n/use-locale';

/** /subPackages/bankAccount/accountLog: every change to the user's bank accounts, newest first. */
export function AccountLogPage() {
  return (
    <RequireLogin>
      <AccountLog />
    </RequireLogin>
  );
}

function AccountLog() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const { data, isPending } = useQuery(bankAccountLogQuery(userId, token));
  if (isPending) return <PageLoading />;
  const items = data?.items ?? [];
  if (items.length === 0) return <EmptyState description={t('accountLog.empty')} />;
  return (
    <ol className="funds-list" data-testid="account-log" aria-label={t('titles.accountLog')}>
      {items.map((entry) => (
        <li key={entry.id} className="funds-card" data-testid="account-log-entry" data-action={entry.action}>
          <div className="funds-card__head">
            <strong>{t(`accountLog.actions.${entry.action}`)}</strong>
            <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>
          </div>
          <p>
            {entry.bank_name} {entry.branch_name} {entry.account_number} · {entry.holder_name}
          </p>
          {entry.reason !== null && (
            <p className="funds-reason">
              <strong>{t('funds.reason')}:</strong> {entry.reason}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}
