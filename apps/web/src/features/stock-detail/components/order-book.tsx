import { sen, type Locale, type Sen, type TBoard } from '@kabuto/contract';
import { useTranslation } from 'react-i18next';
import { useLiveBoard } from '@/domains/market/board-api';
import { changeClass, formatPlainPrice, formatShares, type PriceDecimals } from '@/shared/format/price';
import { useLocale } from '@/shared/i18n/use-locale';
import { useStock } from '../live-stock';

const selectPrevClose = (stock: { quote: { prev_close: number } | null }) => stock.quote?.prev_close ?? null;

/**
 * The order book (板) in the classic Japanese layout: 売気配株数 | 値段 | 買気配株数, the asks above (highest
 * first, down to the best ask) and the bids below (from the best bid down), OVER on top and UNDER at the
 * bottom, the touch highlighted. Live from the stream; simulated like every price here (ADR 0024).
 *
 * `onPickPrice`: when given, each price is a button that hands its price (sen) to the order form, to prefill
 * its limit price. The page wires it to the order form.
 */
export function OrderBook({
  code,
  decimals,
  onPickPrice,
}: {
  code: string;
  decimals: PriceDecimals;
  onPickPrice?: (price: Sen) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const board = useLiveBoard(code);
  const prevClose = useStock(code, selectPrevClose).data ?? null;
  return (
    <section className="order-book" aria-labelledby="order-book-title" data-testid="order-book">
      <div className="order-book__head">
        <h2 id="order-book-title" className="order-book__title">
          {t('board.title')}
        </h2>
        {board?.simulated !== false && <span className="order-book__simulated">{t('board.simulated')}</span>}
      </div>
      {board === undefined ? (
        <p className="order-book__empty">{t('board.loading')}</p>
      ) : (
        <BookTable
          board={board}
          prevClose={prevClose ?? board.last}
          decimals={decimals}
          locale={locale}
          onPickPrice={onPickPrice}
        />
      )}
      {onPickPrice !== undefined && <p className="order-book__hint">{t('board.tapHint')}</p>}
    </section>
  );
}

function BookTable({
  board,
  prevClose,
  decimals,
  locale,
  onPickPrice,
}: {
  board: TBoard;
  /** prices are coloured against the previous close, as on every Japanese board */
  prevClose: number;
  decimals: PriceDecimals;
  locale: Locale;
  onPickPrice: ((price: Sen) => void) | undefined;
}) {
  const { t } = useTranslation();
  const price = (value: number) => {
    const text = formatPlainPrice(value, decimals, locale);
    if (onPickPrice === undefined) return text;
    return (
      <button
        type="button"
        className="order-book__pick"
        aria-label={t('board.pick', { price: text })}
        onClick={() => {
          onPickPrice(sen(value));
        }}
      >
        {text}
      </button>
    );
  };
  const asks = [...board.asks].reverse();
  return (
    <table className="order-book__table">
      <thead>
        <tr>
          <th scope="col">{t('board.askSize')}</th>
          <th scope="col">{t('board.price')}</th>
          <th scope="col">{t('board.bidSize')}</th>
        </tr>
      </thead>
      <tbody>
        <tr className="order-book__row order-book__row--over" data-testid="board-over">
          <td className="order-book__ask">{formatShares(board.over, locale)}</td>
          <td className="order-book__price">OVER</td>
          <td className="order-book__bid" />
        </tr>
        {asks.map((level, i) => (
          <tr
            key={`a${level.price}`}
            className={`order-book__row${i === asks.length - 1 ? ' order-book__row--touch' : ''}`}
            data-testid="board-ask"
          >
            <td className="order-book__ask">{formatShares(level.quantity, locale)}</td>
            <th scope="row" className={`order-book__price ${changeClass(level.price - prevClose)}`}>
              {price(level.price)}
            </th>
            <td className="order-book__bid" />
          </tr>
        ))}
        {board.bids.map((level, i) => (
          <tr
            key={`b${level.price}`}
            className={`order-book__row${i === 0 ? ' order-book__row--touch' : ''}`}
            data-testid="board-bid"
          >
            <td className="order-book__ask" />
            <th scope="row" className={`order-book__price ${changeClass(level.price - prevClose)}`}>
              {price(level.price)}
            </th>
            <td className="order-book__bid">{formatShares(level.quantity, locale)}</td>
          </tr>
        ))}
        <tr className="order-book__row order-book__row--under" data-testid="board-under">
          <td className="order-book__ask" />
          <td className="order-book__price">UNDER</td>
          <td className="order-book__bid">{formatShares(board.under, locale)}</td>
        </tr>
      </tbody>
    </table>
  );
}
