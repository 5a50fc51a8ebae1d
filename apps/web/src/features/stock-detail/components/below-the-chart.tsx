import { StockNews } from '@/domains/news/stock-news';
import { OpenAccountGate } from '@/domains/opening/account-opening-prompt';
import type { PriceDecimals } from '@/shared/format/price';
import type { StockInfo } from '../stock-selectors';
import { OrderBook } from './order-book';
import { OrderPanel } from './order-form';

/**
 * What the stock page shows under its chart: the order book, the order form (behind the account-opening
 * gate) and the stock's news. Its own chunk, fetched once the first screen is drawn (stock-detail-page.tsx).
 */
export function BelowTheChart({
  code,
  info,
  decimals,
}: {
  code: string;
  info: StockInfo;
  decimals: PriceDecimals;
}) {
  return (
    <>
      <OrderBook code={code} decimals={decimals} />
      {info.tradable && (
        <OpenAccountGate>
          <OrderPanel stock={info} />
        </OpenAccountGate>
      )}
      <StockNews code={code} />
    </>
  );
}
