import type { Locale, TMarketList } from '@kabuto/contract';
import { referenceData, type Instrument } from '../../market/instruments.js';
import type { MarketDataProvider, Quote } from '../../market/provider.js';
import { readsJapanese, rowView } from './views.js';

export type MarketSort = 'gainers' | 'losers' | 'active' | 'turnover' | 'code' | 'price';

const COMPARE: Record<MarketSort, (a: Quote, b: Quote) => number> = {
  gainers: (a, b) => b.change_bp - a.change_bp,
  losers: (a, b) => a.change_bp - b.change_bp,
  active: (a, b) => b.volume - a.volume,
  turnover: (a, b) => b.turnover - a.turnover,
  price: (a, b) => b.last - a.last,
  code: () => 0,
};

/** The tradable universe with its live quotes, in code order. */
export function universe(market: MarketDataProvider): { instrument: Instrument; quote: Quote }[] {
  const data = referenceData();
  const rows: { instrument: Instrument; quote: Quote }[] = [];
  for (const quote of market.quotes(market.codes)) {
    const instrument = data.byCode.get(quote.code);
    if (instrument) rows.push({ instrument, quote });
  }
  return rows.sort((a, b) => (a.instrument.code < b.instrument.code ? -1 : 1));
}

/** Sector filter values are the sector as shown in either language. */
function inSector(instrument: Instrument, sector: string | undefined): boolean {
  return (
    sector === undefined || sector === '' || instrument.sector === sector || instrument.sector_en === sector
  );
}

export function marketList(
  market: MarketDataProvider,
  locale: Locale,
  query: { sort: MarketSort; sector?: string | undefined; limit: number; offset: number },
  watched: ReadonlySet<string>,
): TMarketList {
  const rows = universe(market).filter((r) => inSector(r.instrument, query.sector));
  const compare = COMPARE[query.sort];
  // Stable sort: ties keep code order, so pages do not shuffle.
  rows.sort((a, b) => compare(a.quote, b.quote));
  return {
    total: rows.length,
    items: rows
      .slice(query.offset, query.offset + query.limit)
      .map((r) => rowView(r.instrument, locale, r.quote, watched.has(r.instrument.code))),
  };
}

export function sectors(
  market: MarketDataProvider,
  locale: Locale,
): { sector: string; name: string; count: number; change_bp: number }[] {
  const groups = new Map<string, { name: string; changes: number[] }>();
  for (const { instrument, quote } of universe(market)) {
    const name = readsJapanese(locale) ? instrument.sector : instrument.sector_en;
    const group = groups.get(instrument.sector) ?? { name, changes: [] };
    group.changes.push(quote.change_bp);
    groups.set(instrument.sector, group);
  }
  return [...groups.entries()]
    .map(([sector, g]) => ({
      sector,
      name: g.name,
      count: g.changes.length,
      change_bp: Math.round(g.changes.reduce((a, b) => a + b, 0) / g.changes.length),
    }))
    .sort((a, b) => b.change_bp - a.change_bp || (a.sector < b.sector ? -1 : 1));
}
