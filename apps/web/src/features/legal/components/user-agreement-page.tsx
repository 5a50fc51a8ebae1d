import { USER_AGREEMENT_EFFECTIVE_DATE } from '@kabuto/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { formatDate } from '@/shared/format/format';
import { LEGAL_TEXTS } from '../content/legal-texts';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * /subPackages/deal/userDeal: the user agreement, followed by the security terms and the privacy policy
 * (?section=security|privacy scrolls to one of them).
 */
export function UserAgreementPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params] = useSearchParams();
  const section = params.get('section');
  const docs = LEGAL_TEXTS[locale];

  useEffect(() => {
    if (section === null) return;
    document.getElementById(`doc-${section}`)?.scrollIntoView();
  }, [section]);

  return (
    <div className="legal" lang={locale}>
      <p className="legal__effective">
        {t('agreement.effective', { date: formatDate(USER_AGREEMENT_EFFECTIVE_DATE, locale) })}
      </p>
      <nav aria-label={t('agreement.contents')} className="legal__toc">
        <ul>
          {docs.map((doc) => (
            <li key={doc.id}>
              <a
                href={`#doc-${doc.id}`}
                onClick={(e) => {
                  e.preventDefault();
                  document.getElementById(`doc-${doc.id}`)?.scrollIntoView({ behavior: 'smooth' });
                }}
              >
                {doc.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {docs.map((doc) => (
        <article
          key={doc.id}
          id={`doc-${doc.id}`}
          className="legal__doc"
          aria-labelledby={`doc-${doc.id}-title`}
        >
          <h2 id={`doc-${doc.id}-title`}>{doc.title}</h2>
          {doc.sections.map((s) => (
            <section key={s.heading}>
              <h3>{s.heading}</h3>
              {s.paragraphs.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </section>
          ))}
        </article>
      ))}
    </div>
  );
}
