import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestMarket, testIndex } from '../test/test-market.js';
import { TestSocket, isType } from '../test/ws-client.js';

/** The order book (板) on the stream: asked for with `board`, sent at once and with each tick of the stock. */
let t: TestApp;
let market: TestMarket;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ MARKET_CLOCK: 'always-open' }, undefined, {
    produceTicks: true,
    market: (clock) => (market = new TestMarket(clock)),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/ws`;
  market.set('7203', 3000);
  market.set('6758', 2000);
});
afterAll(() => t.close());

const boardOf = (code: string, last?: number) =>
  isType('board', (m) => {
    const board = m['board'] as { code: string; last: number };
    return board.code === code && (last === undefined || board.last === last);
  });

describe('the order book stream', () => {
  it('sends the book at once, then with each tick of the stock, and stops when told', async () => {
    const ws = await TestSocket.open(`${url}?lang=en`);
    await ws.next(isType('ready'));
    ws.send({ op: 'board', symbols: ['7203', 'NOPE'] });
    const first = await ws.next(boardOf('7203'));
    expect(first['board']).toMatchObject({ last: 300_000, simulated: true });
    expect((first['board'] as { asks: { price: number }[] }).asks[0]?.price).toBe(300_050); // a ¥0.5 tick at ¥3,000

    // no quote subscription is needed for the book; another stock's tick sends no book
    market.tick('7203', 3010);
    const moved = await ws.next(boardOf('7203', 301_000));
    expect((moved['board'] as { bids: unknown[] }).bids).toHaveLength(10);

    ws.send({ op: 'board', symbols: [] });
    ws.send({ op: 'ping', t: 7 }); // answered after the command before it
    await ws.next(isType('pong', (m) => m['t'] === 7));
    const count = ws.messages.length;
    market.tick('7203', 3020);
    market.tick('6758', 2010);
    market.tickIndex(testIndex(41_000));
    await ws.next(
      isType('index', (m) => (m['index'] as { level: number }).level === 41_000),
      10_000,
      count,
    );
    expect(ws.messages.slice(count).filter((m) => m['type'] === 'board')).toEqual([]);
    ws.close();
  });

  it('refuses more books than a socket may watch, with a localized error', async () => {
    const ws = await TestSocket.open(`${url}?lang=jp`);
    await ws.next(isType('ready'));
    ws.send({ op: 'board', symbols: ['7203', '6758', '7203', '6758', '7203', '6758'] });
    await ws.next(isType('error', (m) => m['msg'] === '入力内容をご確認ください'));
    ws.close();
  });
});
