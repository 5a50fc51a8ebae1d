import { z } from 'zod';
import { ZBoard, ZIndexQuote, ZQuote } from './market.js';

/**
 * The WebSocket at /api/ws. The client sends JSON commands; the server sends JSON messages.
 * Authentication is optional for market data and required for the user's own channel.
 */
export const WS_PATH = '/api/ws';
export const WS_MAX_SYMBOLS = 100;
/** The server pings this often; a client that hears nothing for 2.5 intervals reconnects. */
export const WS_HEARTBEAT_MS = 15_000;
/** How many order books (板) one socket may watch at once. */
export const WS_MAX_BOARDS = 5;

export const ZWsCommand = z.discriminatedUnion('op', [
  z.object({ op: z.literal('auth'), token: z.string().min(1).max(200) }),
  z.object({ op: z.literal('subscribe'), symbols: z.array(z.string().max(8)).max(WS_MAX_SYMBOLS) }),
  z.object({ op: z.literal('unsubscribe'), symbols: z.array(z.string().max(8)).max(WS_MAX_SYMBOLS) }),
  z.object({ op: z.literal('ping'), t: z.number().optional() }),
  /** the order books (板) to stream: replaces the socket's previous set ([] stops them) */
  z.object({ op: z.literal('board'), symbols: z.array(z.string().max(8)).max(WS_MAX_BOARDS) }),
]);
export type TWsCommand = z.infer<typeof ZWsCommand>;

/** Something that happened to the user (an order filled, a review finished); later features add kinds. */
export const ZUserEvent = z.object({
  kind: z.string(),
  at: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type TUserEvent = z.infer<typeof ZUserEvent>;

export const ZWsMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), user_id: z.number().int().nullable() }),
  z.object({ type: z.literal('quote'), quote: ZQuote }),
  /** a watched stock's order book, sent with each of its ticks */
  z.object({ type: z.literal('board'), board: ZBoard }),
  z.object({
    type: z.literal('index'),
    index: ZIndexQuote.omit({ name: true }).extend({ name: z.string().optional() }),
  }),
  z.object({ type: z.literal('event'), event: ZUserEvent }),
  z.object({ type: z.literal('subscribed'), symbols: z.array(z.string()) }),
  z.object({ type: z.literal('pong'), t: z.number().optional() }),
  z.object({ type: z.literal('error'), code: z.number().int(), msg: z.string() }),
  /**
   * The live stream's state (ADR 0032): `stale: true` while the server has lost its pub/sub (Redis) and
   * quotes may stop moving; `stale: false` once it is back. A socket is live when `ready` says nothing else.
   */
  z.object({ type: z.literal('stream'), stale: z.boolean() }),
]);
export type TWsMessage = z.infer<typeof ZWsMessage>;
