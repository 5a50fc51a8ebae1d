import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MARGIN_RULES,
  LOT_SIZE,
  ZCancelOrderRequest,
  ZClosePositionRequest,
  ZOrder,
  ZOrderNoQuery,
  ZOrdersQuery,
  ZPlaceOrderRequest,
  ZPosition,
  ZPositionsQuery,
  ZTradingRules,
  envelope,
  sen,
  yen,
  type TOrder,
} from '@kabuto/contract';
import type { FastifyRequest } from 'fastify';
import { requireVerifiedCached } from '../identity/identity.js';
import { requireTradingAccount } from '../opening/brokerage.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { idempotent } from '../../plugins/idempotency.js';
import { ledgerClaim, type ClaimedLedger } from '../ledger/ledger.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { fillsFrom } from '../../market/venues.js';
import { closePosition } from './close.js';
import { ORDER_DRAWS, placeOrder } from './open.js';
import type { Outbox, TradingDeps } from './orders.js';
import { cancelOrder } from './pending.js';
import { findOrder, listOrders, listPositions } from './queries.js';
import { orderView, positionView } from './views.js';

export const tradingRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['trade'];
  const user = { onRequest: requireUser };
  const deps = (request: FastifyRequest): TradingDeps => ({
    clock: app.ctx.clock,
    market: app.ctx.market,
    fees: app.ctx.fees,
    locale: request.locale,
  });
  const publish = async (outbox: Outbox) => {
    for (const { userId, event } of outbox) await app.ctx.realtime.publishUserEvent(userId, event);
  };
  const view = (request: FastifyRequest) => (order: Parameters<typeof orderView>[0]) =>
    orderView(order, request.locale, fillsFrom(app.ctx.market, app.ctx.clock.now(), order.venue));

  app.get('/trade/rules', { schema: { tags, response: { 200: envelope(ZTradingRules) } } }, async (request) =>
    ok(request, {
      lot_size: LOT_SIZE,
      max_leverage: MARGIN_RULES.maxLeverage,
      initial_margin_bp: MARGIN_RULES.initialMarginBp,
      maintenance_bp: MARGIN_RULES.maintenanceBp,
      min_collateral: yen(MARGIN_RULES.minCollateralYen),
      fee_bp: app.ctx.fees.bp,
      fee_min: sen(app.ctx.fees.min),
      fee_max: sen(app.ctx.fees.max),
    }),
  );

  app.post(
    '/trade/placeOrder',
    { ...user, schema: { tags, body: ZPlaceOrderRequest, response: { 200: envelope(ZOrder) } } },
    async (request) => {
      const userId = sessionOf(request).userId;
      // Opening positions needs a passed real-name verification; closing and cancelling never do.
      await requireVerifiedCached(app.ctx.db, userId);
      // Issue 23 (ADR 0022): and an open brokerage account, with suitability for a margin or short order.
      await requireTradingAccount(
        app.ctx.db,
        userId,
        request.body,
        request.locale,
        tokyoParts(app.ctx.clock.now()).date,
      );
      const outbox: Outbox = [];
      const render = view(request);
      const order = await idempotent<TOrder, ClaimedLedger>(
        app.ctx.db,
        request,
        userId,
        ledgerClaim(ORDER_DRAWS),
        async (tx, claim) => {
          const placed = await placeOrder(tx, deps(request), userId, request.body, outbox, { claim, render });
          return claim.answer ?? render(placed);
        },
      );
      await publish(outbox);
      return ok(request, order);
    },
  );

  app.post(
    '/trade/closePosition',
    { ...user, schema: { tags, body: ZClosePositionRequest, response: { 200: envelope(ZOrder) } } },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: Outbox = [];
      const order = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) =>
        view(request)(await closePosition(tx, deps(request), userId, request.body, outbox)),
      );
      await publish(outbox);
      return ok(request, order);
    },
  );

  app.post(
    '/trade/cancelOrder',
    { ...user, schema: { tags, body: ZCancelOrderRequest, response: { 200: envelope(ZOrder) } } },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: Outbox = [];
      const order = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) =>
        view(request)(await cancelOrder(tx, deps(request), userId, request.body.order_no, outbox)),
      );
      await publish(outbox);
      return ok(request, order);
    },
  );

  app.get(
    '/trade/orders',
    { ...user, schema: { tags, querystring: ZOrdersQuery, response: { 200: envelope(z.array(ZOrder)) } } },
    async (request) =>
      ok(
        request,
        (
          await listOrders(app.ctx.db, sessionOf(request).userId, request.query.status, request.query.venue)
        ).map(view(request)),
      ),
  );

  app.get(
    '/trade/order',
    { ...user, schema: { tags, querystring: ZOrderNoQuery, response: { 200: envelope(ZOrder) } } },
    async (request) =>
      ok(
        request,
        view(request)(await findOrder(app.ctx.db, sessionOf(request).userId, request.query.order_no)),
      ),
  );

  app.get(
    '/trade/positions',
    {
      ...user,
      schema: { tags, querystring: ZPositionsQuery, response: { 200: envelope(z.array(ZPosition)) } },
    },
    async (request) =>
      ok(
        request,
        (await listPositions(app.ctx.db, sessionOf(request).userId, request.query.status)).map((p) =>
          positionView(p, request.locale, app.ctx.market),
        ),
      ),
  );
};
