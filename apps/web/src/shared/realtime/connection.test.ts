import { sen, type TQuote } from '@kabuto/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  NOT_CONNECTED_MESSAGE,
  RealtimeConnection,
  SOCKET_STATE,
  type SocketLike,
} from './connection';

/** A fake WebSocket: records what was sent; the test opens, feeds and closes it. */
class FakeSocket implements SocketLike {
  static instances: FakeSocket[] = [];
  readyState: number = SOCKET_STATE.CONNECTING;
  sent: unknown[] = [];
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== SOCKET_STATE.OPEN) throw new Error('InvalidStateError');
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    this.closed = true;
    this.readyState = SOCKET_STATE.CLOSED;
  }

  // test controls
  open(): void {
    this.readyState = SOCKET_STATE.OPEN;
    this.onopen?.(new Event('open'));
  }

  receive(message: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  drop(): void {
    this.readyState = SOCKET_STATE.CLOSED;
    this.onclose?.(new Event('close') as CloseEvent);
  }

  ops(): string[] {
    return this.sent.map((m) => (m as { op: string }).op);
  }
}

const last = () => {
  const socket = FakeSocket.instances.at(-1);
  if (socket === undefined) throw new Error('no socket');
  return socket;
};

function setup(
  options: { token?: string | null; random?: () => number; onRefused?: (token: string) => void } = {},
) {
  let token = options.token ?? null;
  const connection = new RealtimeConnection({
    url: () => 'ws://test/api/ws',
    createSocket: (url) => new FakeSocket(url),
    getToken: () => token,
    random: options.random ?? (() => 0.5),
    onRefused: options.onRefused,
  });
  return {
    connection,
    setToken: (next: string | null) => {
      token = next;
      connection.tokenChanged();
    },
  };
}

const quote = (code: string, last: number): TQuote => ({
  code,
  last: sen(last),
  bid: sen(last),
  ask: sen(last),
  open: sen(last),
  high: sen(last),
  low: sen(last),
  prev_close: sen(last),
  volume: 100,
  turnover: sen(last * 100),
  change: sen(0),
  change_bp: 0,
  limit_up: sen(last * 2),
  limit_down: sen(1),
  trading_date: '2026-01-05',
  time: '2026-01-05T00:00:00.000Z',
  simulated: true,
});

describe('backoff', () => {
  it('doubles from 0.5 s up to 30 s with full jitter', () => {
    const top = () => 0.999_999;
    expect(backoffDelay(0, top)).toBe(499);
    expect(backoffDelay(1, top)).toBe(999);
    expect(backoffDelay(2, top)).toBe(1999);
    expect(backoffDelay(6, top)).toBe(29_999);
    expect(backoffDelay(7, top)).toBe(29_999);
    expect(backoffDelay(50, top)).toBe(29_999);
    expect(backoffDelay(3, () => 0)).toBe(0);
    expect(backoffDelay(3, () => 0.5)).toBe(2000);
  });
});

describe('realtime connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.instances = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects lazily, on the first subscriber', () => {
    const { connection } = setup();
    expect(FakeSocket.instances).toHaveLength(0);
    connection.subscribe(['7203']);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(last().url).toBe('ws://test/api/ws');
  });

  it('says quotes are stale while the server says so, and live again when it says so or a new socket greets', () => {
    const { connection } = setup();
    const told: boolean[] = [];
    connection.onStale((stale) => told.push(stale));
    connection.subscribe(['7203']);
    last().open();
    last().receive({ type: 'ready', user_id: null });
    expect(connection.isStale()).toBe(false);
    last().receive({ type: 'stream', stale: true });
    expect(connection.isStale()).toBe(true);
    last().receive({ type: 'stream', stale: true });
    last().receive({ type: 'stream', stale: false });
    last().receive({ type: 'stream', stale: true });
    // a new socket is live unless its server says otherwise
    last().receive({ type: 'ready', user_id: null });
    expect(told).toEqual([true, false, true, false]);
  });

  it("throws 'WebSocket is not connected' when sending on a closed socket", () => {
    const { connection } = setup();
    expect(() => {
      connection.send({ op: 'ping' });
    }).toThrow(new Error(NOT_CONNECTED_MESSAGE));
    connection.subscribe(['7203']);
    expect(() => {
      connection.send({ op: 'ping' });
    }).toThrow('WebSocket is not connected');
    last().open();
    connection.send({ op: 'ping', t: 1 });
    expect(last().sent.at(-1)).toEqual({ op: 'ping', t: 1 });
    last().drop();
    expect(() => {
      connection.send({ op: 'ping' });
    }).toThrow('WebSocket is not connected');
  });

  it('authenticates after open, then subscribes; re-authenticates when the token changes', () => {
    const { connection, setToken } = setup({ token: 'tok-1' });
    connection.subscribe(['7203', '6758']);
    last().open();
    expect(last().sent).toEqual([
      { op: 'auth', token: 'tok-1' },
      { op: 'subscribe', symbols: ['7203', '6758'] },
    ]);
    setToken('tok-2');
    expect(last().sent.at(-1)).toEqual({ op: 'auth', token: 'tok-2' });
    // Logging out starts a fresh anonymous connection with the same subscriptions.
    setToken(null);
    expect(FakeSocket.instances).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', symbols: ['7203', '6758'] }]);
  });

  it('tells the app once when the server refuses the token it holds, and not after a logout', () => {
    const refused = vi.fn();
    const { connection, setToken } = setup({ token: 'T1', onRefused: refused });
    connection.subscribe(['7203']);
    last().open();
    expect(last().sent[0]).toEqual({ op: 'auth', token: 'T1' });
    last().receive({ type: 'error', code: 400, msg: 'bad command' });
    expect(refused).not.toHaveBeenCalled();
    // A logout on another device: the server ends the session and says so on the socket.
    last().receive({ type: 'error', code: 401, msg: 'session ended' });
    expect(refused).toHaveBeenCalledExactlyOnceWith('T1');
    // The socket is anonymous now: a second 401 is not a second refusal of the session...
    last().receive({ type: 'error', code: 401, msg: 'session ended' });
    expect(refused).toHaveBeenCalledOnce();
    // ...and the same token, once confirmed by the app, is sent again.
    connection.tokenChanged();
    expect(last().sent.at(-1)).toEqual({ op: 'auth', token: 'T1' });

    // After a logout here, the socket has been replaced by an anonymous one: a refusal that comes late, on
    // the old socket or the new, is not the app's concern.
    const old = last();
    setToken(null);
    expect(old.closed).toBe(true);
    old.receive({ type: 'error', code: 401, msg: 'session ended' });
    last().open();
    last().receive({ type: 'error', code: 401, msg: 'session ended' });
    expect(refused).toHaveBeenCalledOnce();
  });

  it('reference-counts subscriptions', () => {
    const { connection } = setup();
    const a = connection.subscribe(['7203']);
    last().open();
    const b = connection.subscribe(['7203', '6758']);
    expect(last().sent).toEqual([
      { op: 'subscribe', symbols: ['7203'] },
      { op: 'subscribe', symbols: ['6758'] },
    ]);
    a();
    a(); // releasing twice is harmless
    expect(last().ops()).not.toContain('unsubscribe');
    expect(connection.subscribedSymbols().sort()).toEqual(['6758', '7203']);
    b();
    expect(last().sent.at(-1)).toEqual({ op: 'unsubscribe', symbols: ['7203', '6758'] });
    expect(connection.subscribedSymbols()).toEqual([]);
  });

  it('closes a while after the last subscriber leaves, and not when another comes back in time', () => {
    const { connection } = setup();
    const a = connection.subscribe(['7203']);
    last().open();
    a();
    vi.advanceTimersByTime(5_000);
    const b = connection.subscribe(['7203']);
    vi.advanceTimersByTime(20_000);
    expect(last().closed).toBe(false);
    b();
    vi.advanceTimersByTime(10_000);
    expect(last().closed).toBe(true);
    expect(connection.getState()).toBe('idle');
  });

  it("says when the user's events start arriving, again after a reconnect and a new login, never replayed", () => {
    const { connection, setToken } = setup({ token: 'a', random: () => 0 });
    const events: string[] = [];
    let lives = 0;
    connection.onUserEvent(
      (event) => events.push(event.kind),
      () => {
        lives += 1;
      },
    );
    last().open();
    // authenticated, not yet live: an anonymous greeting is not the user's
    last().receive({ type: 'ready', user_id: null });
    expect(lives).toBe(0);
    last().receive({ type: 'ready', user_id: 7 });
    expect(lives).toBe(1);
    // a listener that comes once the socket is live is told at once
    let lateLives = 0;
    const stop = connection.onUserEvent(
      () => undefined,
      () => {
        lateLives += 1;
      },
    );
    expect(lateLives).toBe(1);
    stop();
    // the socket drops: live again only once the new socket's server says so
    last().drop();
    vi.advanceTimersByTime(1);
    last().open();
    expect(lives).toBe(1);
    last().receive({ type: 'ready', user_id: 7 });
    expect(lives).toBe(2);
    expect(lateLives).toBe(1);
    // a new login on the same socket: live again after its greeting
    setToken('b');
    expect(last().sent.at(-1)).toEqual({ op: 'auth', token: 'b' });
    const late = connection.onUserEvent(
      () => undefined,
      () => {
        lateLives += 1;
      },
    );
    expect(lateLives).toBe(1);
    last().receive({ type: 'ready', user_id: 8 });
    expect(lives).toBe(3);
    expect(lateLives).toBe(2);
    late();
    expect(events).toEqual([]);
  });

  it('reconnects with backoff and subscribes everything again', () => {
    const { connection } = setup({ random: () => 0.999 });
    connection.subscribe(['7203']);
    connection.subscribe(['6758']);
    last().open();
    last().drop();
    expect(connection.getState()).toBe('waiting');
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(498);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    // Fails again before opening: the next delay is about twice as long.
    last().drop();
    vi.advanceTimersByTime(998);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(3);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', symbols: ['7203', '6758'] }]);
    // A successful open resets the backoff.
    last().drop();
    vi.advanceTimersByTime(499);
    expect(FakeSocket.instances).toHaveLength(4);
  });

  it('pings every 15 s and reconnects after 40 s of silence', () => {
    const { connection } = setup({ random: () => 0 });
    connection.subscribe(['7203']);
    const first = last();
    first.open();
    vi.advanceTimersByTime(15_000);
    expect(first.ops()).toEqual(['subscribe', 'ping']);
    first.receive({ type: 'pong' });
    vi.advanceTimersByTime(15_000);
    expect(first.ops()).toEqual(['subscribe', 'ping', 'ping']);
    // Last heard at 15 s: silent until 55 s.
    vi.advanceTimersByTime(24_999);
    expect(first.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.closed).toBe(true);
    expect(connection.getState()).toBe('waiting');
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(FakeSocket.instances[1]).not.toBe(first);
  });

  it('hands quotes, index ticks and user events to their listeners and ignores junk', () => {
    const { connection } = setup();
    const quotes: string[] = [];
    const events: string[] = [];
    const indices: string[] = [];
    connection.onQuote((q) => quotes.push(q.code));
    connection.onIndex((i) => indices.push(i.id));
    const stop = connection.onUserEvent((e) => events.push(e.kind));
    expect(FakeSocket.instances).toHaveLength(1); // listening to user events opens the socket
    last().open();
    last().receive({ type: 'quote', quote: quote('7203', 300_000) });
    last().receive({ type: 'event', event: { kind: 'order_filled', at: 'x', data: {} } });
    last().receive({ type: 'nonsense' });
    last().onmessage?.(new MessageEvent('message', { data: '{not json' }));
    last().receive({
      type: 'index',
      index: {
        id: 'topix',
        level: 2800.12,
        open: 2790,
        high: 2810,
        low: 2780,
        prev_close: 2795,
        change: 5.12,
        change_bp: 18,
        trading_date: '2026-01-05',
        time: '2026-01-05T00:00:00.000Z',
        simulated: true,
      },
    });
    expect(quotes).toEqual(['7203']);
    expect(events).toEqual(['order_filled']);
    expect(indices).toEqual(['topix']);
    stop();
    last().receive({ type: 'event', event: { kind: 'later', at: 'x', data: {} } });
    expect(events).toEqual(['order_filled']);
  });
});

describe('order books (板) on the connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.instances = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('watches books reference-counted, sends the whole set, again after a reconnect, and hands books out', () => {
    const { connection } = setup({ random: () => 0 });
    const a = connection.watchBoard('7203');
    last().open();
    expect(last().sent).toEqual([{ op: 'board', symbols: ['7203'] }]);
    const b = connection.watchBoard('7203');
    const c = connection.watchBoard('6758');
    expect(last().sent.at(-1)).toEqual({ op: 'board', symbols: ['7203', '6758'] });
    expect(last().sent).toHaveLength(2);
    const seen: string[] = [];
    connection.onBoard((board) => seen.push(`${board.code}@${board.last}`));
    const book = {
      code: '7203',
      last: 310_000,
      asks: [{ price: 310_100, quantity: 100 }],
      bids: [{ price: 309_900, quantity: 200 }],
      over: 0,
      under: 0,
      trading_date: '2026-01-05',
      time: '2026-01-05T00:00:00.000Z',
      simulated: true,
    };
    last().receive({ type: 'board', board: book });
    last().receive({ type: 'board', board: { ...book, asks: 'junk' } });
    expect(seen).toEqual(['7203@310000']);
    last().drop();
    vi.advanceTimersByTime(1);
    last().open();
    expect(last().sent).toEqual([{ op: 'board', symbols: ['7203', '6758'] }]);
    a();
    expect(last().sent).toHaveLength(1);
    b();
    c();
    expect(last().sent.at(-1)).toEqual({ op: 'board', symbols: [] });
  });
});
