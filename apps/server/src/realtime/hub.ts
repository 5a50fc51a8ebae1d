import type { FastifyBaseLogger } from 'fastify';
import {
  WS_HEARTBEAT_MS,
  WS_MAX_SYMBOLS,
  WS_MAX_BOARDS,
  ZWsCommand,
  translate,
  type Locale,
  type TUserEvent,
  type TWsMessage,
} from '@kabuto/contract';
import type { MarketDataProvider, MarketEvent } from '../market/provider.js';
import { revokes, type ActiveSession, type Revocation } from '../modules/auth/sessions.js';
import { textFrame, type SharedMessage } from './frame.js';
import type { LeaderElection } from './leader.js';
import type { PubSub } from './pubsub.js';

/** A client whose unsent data passes this is too slow: it is dropped rather than slowing the others. */
export const MAX_BUFFERED_BYTES = 512 * 1024;

export const MARKET_CHANNEL = 'market';
const USER_CHANNEL = 'user-events';

/** WebSocket.OPEN */
const WS_OPEN = 1;

/** What the hub uses of a `ws` WebSocket. */
export interface HubSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  ping(): void;
  terminate(): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'pong' | 'close' | 'error', listener: () => void): unknown;
}

/**
 * The connection under a socket, written to directly with frames built once for all subscribers (frame.ts).
 * Only for a connection without extensions (no permessage-deflate): `ws` then writes its own frames to the
 * same connection synchronously, so the two never interleave inside a frame, and its `bufferedAmount` counts
 * what is written here too (the slow-client limit holds). A burst of ticks (a beat of the market comes as
 * one) is kept per socket and written once after it, as one buffer: one stream write and one system call a
 * socket a beat, not one a tick (ADR 0043).
 */
export interface FrameSink {
  write(frame: Buffer): unknown;
}

/**
 * How many sockets' bursts are written in one turn of the event loop: the rest wait for the next turn, so
 * that a socket's own traffic (commands, replies, user events) is not held behind the whole fan-out (ADR 0043).
 */
export const FLUSH_SLICE = 1000;

interface Client {
  socket: HubSocket;
  /** where shared frames go; null: through `socket.send` (text) */
  wire: FrameSink | null;
  /** shared frames of the current burst not yet written (in order), and their bytes */
  pending: Buffer[];
  pendingBytes: number;
  userId: number | null;
  /** the session the socket authenticated with (so that its revocation can end the socket's user stream) */
  sessionId: number | null;
  locale: Locale;
  symbols: Set<string>;
  /** the order books (板) it watches */
  boards: Set<string>;
  alive: boolean;
}

function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

export interface HubStats {
  clients: number;
  dropped: number;
  producing: boolean;
  node: string;
  pubsub: 'local' | 'redis';
  stale: boolean;
}

/**
 * Fans market ticks and user events out to this process's WebSocket clients. Ticks come from the one
 * process that holds the producer lease (leader.ts), through the pub/sub, so every process serves the same
 * stream. Each message is serialized and framed once, then the same bytes are written to every socket that
 * wants it; a burst (a beat's ticks) reaches each socket in one write.
 */
export class RealtimeHub {
  private readonly clients = new Set<Client>();
  private readonly bySymbol = new Map<string, Set<Client>>();
  private readonly byBoard = new Map<string, Set<Client>>();
  private readonly byUser = new Map<number, Set<Client>>();
  private readonly unsubscribers: (() => Promise<void>)[] = [];
  private stopProducing: (() => void) | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private dropped = 0;
  /** the pub/sub is lost: quotes may stop moving, and every client is told so (ADR 0032) */
  private stale = false;
  /** Counts endSessions calls: an `auth` whose lookup spans one looks again (it may predate the revocation). */
  private revocations = 0;
  private readonly leaderJobs: { start(): void; stop(): void }[] = [];
  /** clients with a burst to write, in the order of their first frame; written from `flushed` on */
  private queue: Client[] = [];
  private flushed = 0;

  constructor(
    private readonly deps: {
      market: MarketDataProvider;
      pubsub: PubSub;
      leader: LeaderElection;
      log: FastifyBaseLogger;
      nodeId: string;
      maxBufferedBytes: number;
      authenticate: (token: string) => Promise<ActiveSession | null>;
    },
  ) {}

  /** A job that must run in exactly one process (the matcher): started and stopped with the lease. */
  runWhileLeader(job: { start(): void; stop(): void }): void {
    this.leaderJobs.push(job);
  }

  async start(options: { produce: boolean }): Promise<void> {
    const { pubsub } = this.deps;
    this.unsubscribers.push(
      await pubsub.subscribe(MARKET_CHANNEL, (m) => {
        this.onMarketMessage(m);
      }),
    );
    this.unsubscribers.push(
      await pubsub.subscribe(USER_CHANNEL, (m) => {
        this.onUserMessage(m);
      }),
    );
    if (options.produce) {
      this.deps.leader.start((leader) => {
        if (leader) {
          this.produce();
          for (const job of this.leaderJobs) job.start();
        } else {
          this.stopProducingTicks();
          for (const job of this.leaderJobs) job.stop();
        }
        this.deps.log.info(
          { node: this.deps.nodeId, leader },
          leader ? 'producing market ticks' : 'following',
        );
      });
    }
    this.heartbeat = setInterval(() => {
      this.beat();
    }, WS_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.deps.leader.stop();
    this.stopProducingTicks();
    for (const job of this.leaderJobs) job.stop();
    for (const unsubscribe of this.unsubscribers.splice(0)) await unsubscribe();
    for (const client of this.clients) {
      this.writePending(client);
      client.socket.close(1001, 'server shutting down');
    }
  }

  stats(): HubStats {
    return {
      clients: this.clients.size,
      dropped: this.dropped,
      producing: this.stopProducing !== undefined,
      node: this.deps.nodeId,
      pubsub: this.deps.pubsub.kind,
      stale: this.stale,
    };
  }

  /** The pub/sub was lost (true) or is back (false): every client is told, and each new one while it lasts. */
  setStale(stale: boolean): void {
    if (stale === this.stale) return;
    this.stale = stale;
    const message = textFrame(JSON.stringify({ type: 'stream', stale } satisfies TWsMessage));
    for (const client of this.clients) this.sendShared(client, message);
  }

  isStale(): boolean {
    return this.stale;
  }

  /** Sends a user's own event (an order filled, a review finished) to their sockets on every process. */
  async publishUserEvent(userId: number, event: TUserEvent): Promise<void> {
    const message: TWsMessage = { type: 'event', event };
    await this.deps.pubsub.publish(USER_CHANNEL, `${userId}\n${JSON.stringify(message)}`);
  }

  private produce(): void {
    const { market, pubsub } = this.deps;
    const unsubscribe = market.subscribe((event: MarketEvent) => {
      const ts = Date.now();
      const [key, message] =
        event.type === 'quote'
          ? [event.quote.code, { type: 'quote', quote: event.quote, ts }]
          : ['', { type: 'index', index: event.index, ts }];
      void pubsub.publish(MARKET_CHANNEL, `${key}\n${JSON.stringify(message)}`).catch((error: unknown) => {
        this.deps.log.warn({ err: error }, 'could not publish a tick');
      });
    });
    market.start();
    this.stopProducing = () => {
      unsubscribe();
      market.stop();
    };
  }

  private stopProducingTicks(): void {
    this.stopProducing?.();
    this.stopProducing = undefined;
  }

  private onMarketMessage(raw: string): void {
    const cut = raw.indexOf('\n');
    const code = raw.slice(0, cut);
    const targets = code === '' ? this.clients : this.bySymbol.get(code);
    if (targets && targets.size > 0) {
      // serialised once (by the producer) and framed once here: the same bytes to every subscriber
      const message = textFrame(raw.slice(cut + 1));
      for (const client of targets) this.sendShared(client, message);
    }
    if (code !== '') this.sendBoard(code);
  }

  /**
   * A ticked stock's order book to the clients of this process that watch it: each process computes it from
   * its own provider (the simulator is deterministic; a real feed keeps its book from its stream), so books
   * cross the pub/sub only as the tick that prompts them.
   */
  private sendBoard(code: string): void {
    const watchers = this.byBoard.get(code);
    if (!watchers || watchers.size === 0) return;
    const board = this.deps.market.board(code);
    if (!board) return;
    const message = textFrame(JSON.stringify({ type: 'board', board } satisfies TWsMessage));
    for (const client of watchers) this.sendShared(client, message);
  }

  private onUserMessage(raw: string): void {
    const cut = raw.indexOf('\n');
    const targets = this.byUser.get(Number(raw.slice(0, cut)));
    if (!targets || targets.size === 0) return;
    const message = textFrame(raw.slice(cut + 1));
    // at once, not after the other sockets' bursts (an order filled is the user's own news)
    for (const client of targets) this.sendShared(client, message, true);
  }

  /** Whether the client's socket takes a message now; a client too far behind is dropped (and counted). */
  private writable(client: Client): boolean {
    const { socket } = client;
    if (socket.readyState !== WS_OPEN) return false;
    if (socket.bufferedAmount + client.pendingBytes > this.deps.maxBufferedBytes) {
      this.dropped += 1;
      this.deps.log.warn({ user: client.userId }, 'dropping a slow WebSocket client');
      client.pending = [];
      client.pendingBytes = 0;
      socket.terminate();
      return false;
    }
    return true;
  }

  /** A message for this client alone (a reply), after whatever of the burst it has not been sent yet. */
  private send(client: Client, payload: string): void {
    if (!this.writable(client)) return;
    this.writePending(client);
    client.socket.send(payload);
  }

  /**
   * A message many clients get: its frame is kept with the client's burst (written after it, see `flush`),
   * or its text goes through `ws` at once. `now`: written at once, after the client's burst so far (a user's
   * own event does not wait for the fan-out of a beat).
   */
  private sendShared(client: Client, message: SharedMessage, now = false): void {
    if (!this.writable(client)) return;
    if (!client.wire) {
      client.socket.send(message.text);
      return;
    }
    if (client.pending.length === 0 && !now) {
      if (this.queue.push(client) === 1)
        setImmediate(() => {
          this.flush();
        });
    }
    client.pending.push(message.frame);
    client.pendingBytes += message.frame.length;
    if (now) this.writePending(client);
  }

  /**
   * Writes the bursts of the next FLUSH_SLICE clients in the queue, and comes back in the next turn of the
   * event loop for the rest: the first sockets are sent while the others wait, and commands and user events
   * that arrive meanwhile are served between slices.
   */
  private flush(): void {
    const end = Math.min(this.queue.length, this.flushed + FLUSH_SLICE);
    for (let i = this.flushed; i < end; i++) {
      const client = this.queue[i];
      if (client) this.writePending(client);
    }
    this.flushed = end;
    if (end < this.queue.length)
      setImmediate(() => {
        this.flush();
      });
    else {
      this.queue = [];
      this.flushed = 0;
    }
  }

  /** The client's burst so far as one buffer, in one write (a client flushed early is a no-op later). */
  private writePending(client: Client): void {
    const { pending, wire } = client;
    if (pending.length === 0 || !wire) return;
    const bytes = client.pendingBytes;
    client.pending = [];
    client.pendingBytes = 0;
    if (client.socket.readyState !== WS_OPEN) return;
    wire.write(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, bytes));
  }

  private reply(client: Client, message: TWsMessage): void {
    this.send(client, JSON.stringify(message));
  }

  private beat(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }

  /** A new socket; `wire`: its connection, when shared frames may be written to it directly (FrameSink). */
  attach(socket: HubSocket, locale: Locale, wire?: FrameSink): void {
    const client: Client = {
      socket,
      wire: wire ?? null,
      pending: [],
      pendingBytes: 0,
      userId: null,
      sessionId: null,
      locale,
      symbols: new Set(),
      boards: new Set(),
      alive: true,
    };
    this.clients.add(client);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      client.alive = true;
      if (isBinary) {
        this.fail(client, 'validation.invalidJson');
        return;
      }
      void this.onCommand(client, rawText(data));
    });
    socket.on('close', () => {
      this.detach(client);
    });
    socket.on('error', () => {
      this.detach(client);
    });
    this.reply(client, { type: 'ready', user_id: null });
    if (this.stale) this.reply(client, { type: 'stream', stale: true });
  }

  /**
   * Sockets authenticated with sessions that a revocation ended stop receiving their user's events and are
   * told so (an error with code 401); their market subscriptions stay. Called in every process for every
   * revocation (AppContext.revokedSessions).
   */
  endSessions(revocation: Revocation): void {
    this.revocations += 1;
    const candidates =
      'sessionId' in revocation ? this.clients : (this.byUser.get(revocation.userId) ?? new Set<Client>());
    for (const client of [...candidates]) {
      const { userId, sessionId } = client;
      if (userId === null || sessionId === null || !revokes(revocation, { userId, sessionId })) continue;
      this.byUser.get(userId)?.delete(client);
      client.userId = null;
      client.sessionId = null;
      this.fail(client, 'errors.UNAUTHENTICATED', 401);
    }
  }

  private detach(client: Client): void {
    this.clients.delete(client);
    for (const code of client.symbols) this.bySymbol.get(code)?.delete(client);
    for (const code of client.boards) this.byBoard.get(code)?.delete(client);
    if (client.userId !== null) this.byUser.get(client.userId)?.delete(client);
  }

  private fail(client: Client, key: string, code = 400): void {
    this.reply(client, { type: 'error', code, msg: translate(client.locale, key) });
  }

  private async onCommand(client: Client, text: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.fail(client, 'validation.invalidJson');
      return;
    }
    const parsed = ZWsCommand.safeParse(json);
    if (!parsed.success) {
      this.fail(client, 'errors.VALIDATION');
      return;
    }
    const command = parsed.data;
    switch (command.op) {
      case 'auth': {
        // A lookup during which a revocation came may have read the session before it was revoked: look
        // again (a few times at most; a session that cannot be read in peace is refused).
        let session: ActiveSession | null = null;
        for (let tries = 0; tries < 3; tries++) {
          const seen = this.revocations;
          const found = await this.deps.authenticate(command.token);
          if (seen === this.revocations) {
            session = found;
            break;
          }
        }
        if (session === null) {
          this.fail(client, 'errors.UNAUTHENTICATED', 401);
          return;
        }
        const { userId } = session;
        if (client.userId !== null) this.byUser.get(client.userId)?.delete(client);
        client.userId = userId;
        client.sessionId = session.sessionId;
        const set = this.byUser.get(userId) ?? new Set();
        set.add(client);
        this.byUser.set(userId, set);
        this.reply(client, { type: 'ready', user_id: userId });
        return;
      }
      case 'subscribe': {
        const codes = command.symbols.map((s) => s.toUpperCase()).filter((s) => this.deps.market.quote(s));
        for (const code of codes) {
          if (client.symbols.size >= WS_MAX_SYMBOLS) break;
          client.symbols.add(code);
          const set = this.bySymbol.get(code) ?? new Set();
          set.add(client);
          this.bySymbol.set(code, set);
        }
        this.reply(client, { type: 'subscribed', symbols: [...client.symbols] });
        // A fresh quote at once, so the client does not wait for the next tick.
        for (const quote of this.deps.market.quotes(codes)) this.reply(client, { type: 'quote', quote });
        return;
      }
      case 'unsubscribe': {
        for (const code of command.symbols.map((s) => s.toUpperCase())) {
          client.symbols.delete(code);
          this.bySymbol.get(code)?.delete(client);
        }
        this.reply(client, { type: 'subscribed', symbols: [...client.symbols] });
        return;
      }
      case 'board': {
        for (const code of client.boards) this.byBoard.get(code)?.delete(client);
        client.boards.clear();
        const codes = command.symbols.map((s) => s.toUpperCase()).filter((s) => this.deps.market.quote(s));
        for (const code of codes.slice(0, WS_MAX_BOARDS)) {
          client.boards.add(code);
          const set = this.byBoard.get(code) ?? new Set();
          set.add(client);
          this.byBoard.set(code, set);
          // the book at once, so the client does not wait for the next tick
          const board = this.deps.market.board(code);
          if (board) this.reply(client, { type: 'board', board });
        }
        return;
      }
      case 'ping':
        this.reply(client, command.t === undefined ? { type: 'pong' } : { type: 'pong', t: command.t });
        return;
    }
  }
}
