import { type TIndexQuote } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { changeClass, formatChangeBp, formatPoints } from '@/shared/format/price';
import { useIndexStream } from '@/shared/realtime/realtime';
import { indicesQuery } from './market-api';
import { useLocale } from '@/shared/i18n/use-locale';

/** Nikkei 225 and TOPIX: level, change and change %, live from the stream. */
export function IndexCards() {
  const { t } = useTranslation();
  useIndexStream();
  const { data, isPending } = useQuery(indicesQuery());
  return (
    <section className="index-cards" aria-label={t('market.indices')} aria-busy={isPending}>
      {(data ?? []).map((index) => (
        <IndexCard key={index.id} index={index} />
      ))}
    </section>
  );
}

function IndexCard({ index }: { index: TIndexQuote }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const cls = changeClass(index.change);
  const name = t(`market.${index.id}`);
  return (
    <article className="index-card" aria-label={name} data-testid={`index-${index.id}`}>
      <h3 className="index-card__name">{name}</h3>
      <p className={`index-card__level ${cls}`} data-testid="index-level">
        {formatPoints(index.level, locale)}
      </p>
      <p className={`index-card__change ${cls}`}>
        <span>{formatPoints(index.change, locale, true)}</span>{' '}
        <span>{formatChangeBp(index.change_bp, locale)}</span>
      </p>
    </article>
  );
}
