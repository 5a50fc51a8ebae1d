import type { Locale, TIndexQuote, TInstrument, TQuote, TStockRow } from '@kabuto/contract';
import type { Instrument } from '../../market/instruments.js';
import type { IndexQuote, Quote } from '../../market/provider.js';
import { tickSize } from '@kabuto/contract';

/** Names and sectors read in Japanese for jp, cn and zh-Hant, in English for en, sp and fr. */
export function readsJapanese(locale: Locale): boolean {
  return locale === 'ja' || locale === 'zh-Hans' || locale === 'zh-Hant';
}

export function instrumentView(
  instrument: Instrument,
  locale: Locale,
  quote: Quote | undefined,
): TInstrument {
  const ja = readsJapanese(locale);
  const refPrice = quote?.last;
  return {
    code: instrument.code,
    name: ja ? instrument.name_ja : instrument.name_en,
    name_ja: instrument.name_ja,
    name_en: instrument.name_en,
    sector: ja ? instrument.sector : instrument.sector_en,
    market: instrument.market,
    topix500: instrument.is_topix500,
    nikkei225: instrument.nikkei225,
    tradable: quote !== undefined,
    price_decimals: refPrice !== undefined && tickSize(refPrice, instrument.is_topix500) < 100 ? 1 : 0,
  };
}

export function quoteView(quote: Quote): TQuote {
  return {
    code: quote.code,
    last: quote.last,
    bid: quote.bid,
    ask: quote.ask,
    open: quote.open,
    high: quote.high,
    low: quote.low,
    prev_close: quote.prev_close,
    volume: quote.volume,
    turnover: quote.turnover,
    change: quote.change,
    change_bp: quote.change_bp,
    limit_up: quote.limit_up,
    limit_down: quote.limit_down,
    trading_date: quote.trading_date,
    time: quote.time,
    simulated: quote.simulated,
  };
}

export function rowView(instrument: Instrument, locale: Locale, quote: Quote, watched: boolean): TStockRow {
  return { ...instrumentView(instrument, locale, quote), quote: quoteView(quote), watched };
}

export function indexView(index: IndexQuote, locale: Locale): TIndexQuote {
  return {
    id: index.id,
    name: readsJapanese(locale) ? index.name_ja : index.name_en,
    level: index.level,
    open: index.open,
    high: index.high,
    low: index.low,
    prev_close: index.prev_close,
    change: index.change,
    change_bp: index.change_bp,
    trading_date: index.trading_date,
    time: index.time,
    simulated: index.simulated,
  };
}
