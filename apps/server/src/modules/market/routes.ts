import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STALE_QUOTE_MS,
  ZBars,
  ZBoard,
  ZBarsQuery,
  ZCodeQuery,
  ZEmpty,
  ZIndexQuote,
  ZMarketList,
  ZMarketListQuery,
  ZMarketStatus,
  ZSearchHistory,
  ZSearchHistoryAdd,
  ZSearchQuery,
  ZSearchResults,
  ZSectors,
  ZStockDetail,
  ZWatchRequest,
  ZWatchResult,
  ZWatchlist,
  envelope,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { getInstrument, searchInstruments } from '../../market/instruments.js';
import { UnknownSymbolError } from '../../market/provider.js';
import { nextOpen, sessionState } from '../../market/sessions.js';
import { optionalUser, requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { marketList, sectors } from './lists.js';
import {
  addToWatchlist,
  clearSearches,
  recentSearches,
  recordSearch,
  removeFromWatchlist,
  watchedCodes,
} from './user-lists.js';
import { indexView, instrumentView, quoteView, rowView } from './views.js';

/** Market data is public (browsing needs no account); watchlist and search history are the user's own. */
export const marketRoutes: FastifyPluginAsyncZod = async (app) => {
  const { market } = app.ctx;
  const tags = ['market'];

  app.get(
    '/market/status',
    { schema: { tags, response: { 200: envelope(ZMarketStatus) } } },
    async (request) => {
      const now = app.ctx.clock.now();
      const options = { mode: market.clockMode };
      const state = sessionState(now, options);
      return ok(request, {
        phase: state.state,
        continuous: state.continuous,
        pts_open: state.pts_open,
        always_open: state.always_open,
        simulated: market.simulated,
        trading_date: state.trading_date,
        next_open: nextOpen(now, options).toISOString(),
        server_time: now.toISOString(),
        stale_after_ms: STALE_QUOTE_MS,
      });
    },
  );

  app.get(
    '/market/indices',
    { schema: { tags, response: { 200: envelope(z.array(ZIndexQuote)) } } },
    async (request) =>
      ok(
        request,
        market.indices().map((i) => indexView(i, request.locale)),
      ),
  );

  app.get(
    '/market/list',
    {
      onRequest: optionalUser,
      schema: { tags, querystring: ZMarketListQuery, response: { 200: envelope(ZMarketList) } },
    },
    async (request) => {
      const watched = await watchedCodes(app.ctx.db, request.session?.userId);
      return ok(request, marketList(market, request.locale, request.query, watched));
    },
  );

  app.get('/market/sectors', { schema: { tags, response: { 200: envelope(ZSectors) } } }, async (request) =>
    ok(request, sectors(market, request.locale)),
  );

  app.get(
    '/market/search',
    { schema: { tags, querystring: ZSearchQuery, response: { 200: envelope(ZSearchResults) } } },
    async (request) =>
      ok(
        request,
        searchInstruments(request.query.q, request.query.limit).map((i) =>
          instrumentView(i, request.locale, market.quote(i.code)),
        ),
      ),
  );

  app.get(
    '/market/stock',
    {
      onRequest: optionalUser,
      schema: { tags, querystring: ZCodeQuery, response: { 200: envelope(ZStockDetail) } },
    },
    async (request) => {
      const instrument = getInstrument(request.query.code);
      if (!instrument) throw new AppError('STOCK_NOT_FOUND');
      const quote = market.quote(instrument.code);
      const watched = await watchedCodes(app.ctx.db, request.session?.userId);
      return ok(request, {
        ...instrumentView(instrument, request.locale, quote),
        quote: quote ? quoteView(quote) : null,
        watched: watched.has(instrument.code),
        price_basis: market.priceBasis(instrument.code) ?? null,
      });
    },
  );

  // The order book (板, ADR 0024): public like the quote it comes from.
  app.get(
    '/market/board',
    { schema: { tags, querystring: ZCodeQuery, response: { 200: envelope(ZBoard) } } },
    async (request) => {
      const instrument = getInstrument(request.query.code);
      if (!instrument) throw new AppError('STOCK_NOT_FOUND');
      const board = market.board(instrument.code);
      if (!board) throw new AppError('NO_MARKET_DATA');
      return ok(request, board);
    },
  );

  app.get(
    '/market/bars',
    { schema: { tags, querystring: ZBarsQuery, response: { 200: envelope(ZBars) } } },
    async (request) => {
      const { code, period, limit } = request.query;
      if (!getInstrument(code)) throw new AppError('STOCK_NOT_FOUND');
      try {
        const bars = await market.bars(code, period, limit === undefined ? {} : { limit });
        return ok(request, { code, period, bars });
      } catch (error) {
        if (error instanceof UnknownSymbolError) throw new AppError('NO_MARKET_DATA');
        throw error;
      }
    },
  );

  const user = { onRequest: requireUser };

  app.get(
    '/watchlist/list',
    { ...user, schema: { tags: ['watchlist'], response: { 200: envelope(ZWatchlist) } } },
    async (request) => {
      const codes = await watchedCodes(app.ctx.db, sessionOf(request).userId);
      const rows = [...codes].flatMap((code) => {
        const instrument = getInstrument(code);
        const quote = market.quote(code);
        return instrument && quote ? [rowView(instrument, request.locale, quote, true)] : [];
      });
      return ok(request, rows);
    },
  );

  const watchable = (code: string): string => {
    if (!getInstrument(code)) throw new AppError('STOCK_NOT_FOUND');
    if (!market.quote(code)) throw new AppError('NO_MARKET_DATA');
    return code;
  };

  app.post(
    '/watchlist/add',
    {
      ...user,
      schema: { tags: ['watchlist'], body: ZWatchRequest, response: { 200: envelope(ZWatchResult) } },
    },
    async (request) => {
      const code = watchable(request.body.code);
      await addToWatchlist(app.ctx.db, sessionOf(request).userId, code);
      return ok(request, { code, watched: true });
    },
  );

  app.post(
    '/watchlist/remove',
    {
      ...user,
      schema: { tags: ['watchlist'], body: ZWatchRequest, response: { 200: envelope(ZWatchResult) } },
    },
    async (request) => {
      await removeFromWatchlist(app.ctx.db, sessionOf(request).userId, request.body.code);
      return ok(request, { code: request.body.code, watched: false });
    },
  );

  app.get(
    '/search/history',
    { ...user, schema: { tags: ['search'], response: { 200: envelope(ZSearchHistory) } } },
    async (request) => ok(request, await recentSearches(app.ctx.db, sessionOf(request).userId)),
  );

  app.post(
    '/search/addHistory',
    { ...user, schema: { tags: ['search'], body: ZSearchHistoryAdd, response: { 200: envelope(ZEmpty) } } },
    async (request) => {
      await recordSearch(app.ctx.db, app.ctx.clock, sessionOf(request).userId, request.body.query);
      return ok(request, {});
    },
  );

  app.post(
    '/search/clearHistory',
    { ...user, schema: { tags: ['search'], response: { 200: envelope(ZEmpty) } } },
    async (request) => {
      await clearSearches(app.ctx.db, sessionOf(request).userId);
      return ok(request, {});
    },
  );
};
