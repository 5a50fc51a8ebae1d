import { type TIdentityApplication } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/format/format';
import { switchTab } from '@/shared/navigation/nav';
import { TAB_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { identityQuery } from '../api/identity';
import { ApplicationForm } from './application-form';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * /subPackages/real_name/real_name: the account application's state, and the application (口座開設) while it
 * may be filed.
 */
export function RealNamePage() {
  return (
    <RequireLogin>
      <RealName />
    </RequireLogin>
  );
}

function RealName() {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data: identity } = useQuery(identityQuery(userId, token));
  if (identity === undefined) return <PageLoading />;
  return (
    <div className="funds-page" data-testid="real-name-page" data-status={identity.status}>
      <IdentityState identity={identity} />
      {identity.can_submit && <ApplicationForm identity={identity} />}
    </div>
  );
}

function IdentityState({ identity }: { identity: TIdentityApplication }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const details = identity.full_name !== null && (
    <dl className="funds-details">
      <div>
        <dt>{t('realName.fullName')}</dt>
        <dd>{identity.full_name}</dd>
      </div>
      {identity.application?.full_name_kana != null && (
        <div>
          <dt>{t('opening.kana')}</dt>
          <dd>{identity.application.full_name_kana}</dd>
        </div>
      )}
      {identity.id_number_masked !== null && (
        <div>
          <dt>{identity.application === null ? t('realName.idNumber') : t('opening.myNumber')}</dt>
          <dd>{identity.id_number_masked}</dd>
        </div>
      )}
      {identity.submitted_at !== null && (
        <div>
          <dt>{t('realName.submittedAt')}</dt>
          <dd>{formatDateTime(identity.submitted_at, locale)}</dd>
        </div>
      )}
    </dl>
  );
  switch (identity.status) {
    case 'pending':
      return (
        <section className="funds-state" data-testid="identity-state">
          <Result
            status="waiting"
            title={<h2 className="funds-state__title">{t('realName.pendingTitle')}</h2>}
            description={t('realName.pendingBody')}
          />
          {details}
        </section>
      );
    case 'passed':
      return (
        <section className="funds-state" data-testid="identity-state">
          <Result
            status="success"
            title={<h2 className="funds-state__title">{t('realName.passedTitle')}</h2>}
            description={t('realName.passedBody')}
          />
          {details}
          <Button
            block
            color="primary"
            fill="outline"
            onClick={() => {
              switchTab(TAB_PATHS.user);
            }}
          >
            {t('realName.toAccount')}
          </Button>
        </section>
      );
    case 'rejected':
      return (
        <section className="funds-state" data-testid="identity-state">
          <Result
            status="error"
            title={<h2 className="funds-state__title">{t('realName.rejectedTitle')}</h2>}
            description={t('realName.rejectedBody')}
          />
          <p className="funds-reason" data-testid="identity-reason">
            <strong>{t('funds.reason')}:</strong> {identity.reason ?? '—'}
          </p>
        </section>
      );
    case 'unverified':
      return <h1 className="funds-heading">{t('opening.title')}</h1>;
  }
}
