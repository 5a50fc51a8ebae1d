import { LATE_CHARGE_CAP_BP, LEGAL_CAP_BANDS, yen } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { loanOverviewQuery } from '../api/loans';
import { percent } from '../rates';

/**
 * /subPackages/deal/loanDeal: the loan agreement (金銭消費貸借契約) in the reader's language, with the
 * figures in force: the product's rate and term, the legal caps, the free period, late charges, collection.
 * Readable without an account; a signed-in reader sees the current product's figures.
 */
export function LoanAgreementPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data: overview } = useQuery(loanOverviewQuery(userId, token));
  const pct = (bp: number) => percent(bp, locale);
  const [under100k, under1m, from1m] = LEGAL_CAP_BANDS;
  const articles = [
    ['a1', {}],
    [
      'a2',
      overview?.product
        ? { rate: pct(overview.product.rate_bp), days: overview.product.term_days }
        : { rate: '—', days: '—' },
    ],
    [
      'a3',
      {
        cap1: pct(under100k.cap_bp),
        cap2: pct(under1m.cap_bp),
        cap3: pct(from1m.cap_bp),
        b1: formatMoney(yen(under100k.below_yen), locale),
        b2: formatMoney(yen(under1m.below_yen), locale),
      },
    ],
    ['a4', { days: overview?.policy.free_days ?? 180, loans: overview?.policy.free_loans ?? 5 }],
    ['a5', {}],
    [
      'a6',
      {
        grace: overview?.policy.late_grace_days ?? 7,
        rate: pct(overview?.product?.late_rate_bp ?? LATE_CHARGE_CAP_BP),
        cap: pct(LATE_CHARGE_CAP_BP),
        days: overview?.policy.collection_days ?? 30,
      },
    ],
    ['a7', {}],
    ['a8', {}],
  ] as const;
  return (
    <article className="funds-page legal-page" data-testid="loan-agreement">
      <h2 className="funds-heading">{t('loans.agreement.title')}</h2>
      {articles.map(([key, params]) => (
        <section key={key} className="funds-card">
          <h3>{t(`loans.agreement.${key}Title`)}</h3>
          <p>{t(`loans.agreement.${key}`, params)}</p>
        </section>
      ))}
    </article>
  );
}
