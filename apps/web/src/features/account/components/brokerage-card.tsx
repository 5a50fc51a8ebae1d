import { SUITABILITY_FEATURES, suitabilityRuleText, type TBrokerageAccountView } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { brokerageQuery } from '@/domains/opening/brokerage-api';
import { formatDateTime } from '@/shared/format/format';
import { tContract } from '@/shared/i18n/i18n';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';

/**
 * The securities account on the account page (issue 23): open or not, its accounts (特定口座 with or without
 * withholding, 一般口座, NISA), where new orders go, and what suitability offers: for what is not offered,
 * the published rule not met, in the reader's language.
 */
export function BrokerageCard() {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data } = useQuery(brokerageQuery(userId, token));
  if (data === undefined) return null;
  return <BrokerageDetails account={data} />;
}

function BrokerageDetails({ account }: { account: TBrokerageAccountView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const label = (tax: string) =>
    tax === 'specific' && account.specific_account !== null
      ? tContract(`opening.specificAccount.${account.specific_account}`)
      : t(`opening.account.${tax}`);
  return (
    <section
      className="account-card brokerage-card"
      aria-labelledby="brokerage-title"
      data-testid="brokerage-card"
      data-status={account.status}
    >
      <h2 id="brokerage-title" className="funds-heading">
        {t('opening.account.title')}: {t(`opening.account.${account.status}`)}
      </h2>
      {account.status === 'open' && (
        <>
          <dl className="funds-details">
            {account.opened_at !== null && (
              <div>
                <dt>{t('opening.account.openedAt')}</dt>
                <dd>{formatDateTime(account.opened_at, locale)}</dd>
              </div>
            )}
            <div>
              <dt>{t('opening.account.accounts')}</dt>
              <dd>{account.accounts.map(label).join(' / ')}</dd>
            </div>
            {account.default_account !== null && (
              <div>
                <dt>{t('opening.account.defaultAccount')}</dt>
                <dd>{label(account.default_account)}</dd>
              </div>
            )}
          </dl>
          <h3 className="funds-heading">{t('opening.account.suitability')}</h3>
          <ul className="brokerage-card__features">
            {SUITABILITY_FEATURES.map((feature) => {
              const verdict = account.suitability[feature];
              return (
                <li key={feature} data-testid={`suitability-${feature}`} data-allowed={verdict.allowed}>
                  <strong>{tContract(`opening.features.${feature}`)}</strong>:{' '}
                  {verdict.allowed ? t('opening.account.offered') : t('opening.account.notOffered')}
                  {!verdict.allowed && verdict.unmet.length > 0 && (
                    <p className="funds-note">
                      {t('opening.account.needs', {
                        rules: verdict.unmet
                          .map((rule) => suitabilityRuleText(rule, feature, account.rules, tContract))
                          .join(', '),
                      })}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
