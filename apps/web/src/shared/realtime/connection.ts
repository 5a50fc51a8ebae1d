import {
  ERRORS,
  WS_HEARTBEAT_MS,
  WS_MAX_SYMBOLS,
  WS_MAX_BOARDS,
  ZWsMessage,
  type TBoard,
  type TQuote,
  type TUserEvent,
  type TWsCommand,
  type TWsMessage,
} from '@kabuto/contract';

/**
 * The app's one WebSocket to /api/ws (contract realtime.ts), free of the DOM so that it can be tested with
 * a fake socket: connects lazily when something needs it, authenticates with the current token (again when
 * it changes), keeps reference-counted symbol subscriptions and sends them all again after a reconnect,
 * reconnects with exponential backoff and full jitter, pings every 15 s and reconnects when nothing has
 * been heard for 40 s.
 */
export const NOT_CONNECTED_MESSAGE = 'WebSocket is not connected';

/** WebSocket.readyState values. */
export const SOCKET_STATE = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;

/** The part of the browser's WebSocket this module uses. */
export interface SocketLike {
  readonly readyState: number;
  send: (data: string) => void;
  close: (code?: number, reason?: string) => void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export type IndexTick = Extract<TWsMessage, { type: 'index' }>['index'];
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'waiting';

export interface RealtimeDeps {
  url: () => string;
  createSocket: (url: string) => SocketLike;
  getToken: () => string | null;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
  /** In [0, 1): the jitter. */
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  pingIntervalMs?: number;
  idleTimeoutMs?: number;
  /** How long the socket stays open after the last user leaves (page changes should not reconnect). */
  lingerMs?: number;
  /**
   * The server refused the token this socket authenticated with (expired, logged out elsewhere, ended by a
   * password change), and it is still the app's token: the app's session is over. Called once per refusal.
   */
  onRefused?: (token: string) => void;
  log?: (message: string, detail?: unknown) => void;
}

/** Full-jitter exponential backoff: a random delay in [0, min(max, base·2^attempt)). */
export function backoffDelay(attempt: number, random: () => number, baseMs = 500, maxMs = 30_000): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

type Listener<T> = (value: T) => void;

export class RealtimeConnection {
  private readonly deps: Required<Omit<RealtimeDeps, 'log' | 'onRefused'>> &
    Pick<RealtimeDeps, 'log' | 'onRefused'>;
  private socket: SocketLike | null = null;
  private state: ConnectionState = 'idle';
  private attempt = 0;
  private reconnectTimer: unknown = null;
  private pingTimer: unknown = null;
  private idleTimer: unknown = null;
  private lingerTimer: unknown = null;
  private lastHeardAt = 0;
  private authedToken: string | null = null;
  private readonly symbols = new Map<string, number>();
  private holds = 0;
  /** the order books (板) watched, reference-counted; the server is sent the whole set when it changes */
  private readonly boards = new Map<string, number>();
  private readonly boardListeners = new Set<Listener<TBoard>>();
  private readonly quoteListeners = new Set<Listener<TQuote>>();
  private readonly indexListeners = new Set<Listener<IndexTick>>();
  private readonly eventListeners = new Set<Listener<TUserEvent>>();
  private readonly stateListeners = new Set<Listener<ConnectionState>>();
  private readonly staleListeners = new Set<Listener<boolean>>();
  private readonly liveListeners = new Set<() => void>();
  /** Whether the server has said this socket gets the user's events ('ready' with a user id). */
  private userLive = false;
  /** the server said its live stream is interrupted (ADR 0032); a new socket is live until told otherwise */
  private stale = false;

  constructor(deps: RealtimeDeps) {
    this.deps = {
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (handle) => {
        clearTimeout(handle as ReturnType<typeof setTimeout>);
      },
      now: () => Date.now(),
      random: Math.random,
      backoffBaseMs: 500,
      backoffMaxMs: 30_000,
      pingIntervalMs: WS_HEARTBEAT_MS,
      idleTimeoutMs: 40_000,
      lingerMs: 10_000,
      ...deps,
    };
  }

  // ---- public API ----

  getState(): ConnectionState {
    return this.state;
  }

  /** Codes with at least one subscriber. */
  subscribedSymbols(): string[] {
    return [...this.symbols.keys()];
  }

  /**
   * Subscribes to quotes of these codes (reference-counted: the server is told only about the first
   * subscriber of a code and the last one leaving). Returns the unsubscribe function.
   */
  subscribe(codes: readonly string[]): () => void {
    const unique = [...new Set(codes.map((c) => c.trim().toUpperCase()).filter((c) => c !== ''))];
    const added: string[] = [];
    for (const code of unique) {
      const count = this.symbols.get(code) ?? 0;
      this.symbols.set(code, count + 1);
      if (count === 0) added.push(code);
    }
    this.sendSymbols('subscribe', added);
    this.demand();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const removed: string[] = [];
      for (const code of unique) {
        const count = this.symbols.get(code) ?? 0;
        if (count <= 1) {
          this.symbols.delete(code);
          removed.push(code);
        } else {
          this.symbols.set(code, count - 1);
        }
      }
      this.sendSymbols('unsubscribe', removed);
      this.release();
    };
  }

  /** Keeps the socket open without symbols (index ticks and user events). Returns the release function. */
  hold(): () => void {
    this.holds += 1;
    this.demand();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      this.release();
    };
  }

  /**
   * Watches a stock's order book (板): the server sends it at once and with each of the stock's ticks. At
   * most WS_MAX_BOARDS books are watched at once (the first ones asked for). Returns the release function.
   */
  watchBoard(code: string): () => void {
    const key = code.trim().toUpperCase();
    const count = this.boards.get(key) ?? 0;
    this.boards.set(key, count + 1);
    if (count === 0) this.sendBoards();
    this.demand();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.boards.get(key) ?? 0) - 1;
      if (left <= 0) {
        this.boards.delete(key);
        this.sendBoards();
      } else {
        this.boards.set(key, left);
      }
      this.release();
    };
  }

  onBoard(listener: Listener<TBoard>): () => void {
    return this.addListener(this.boardListeners, listener);
  }

  onQuote(listener: Listener<TQuote>): () => void {
    return this.addListener(this.quoteListeners, listener);
  }

  onIndex(listener: Listener<IndexTick>): () => void {
    return this.addListener(this.indexListeners, listener);
  }

  /** Whether the server said its quotes are stale (its pub/sub lost), told on every change. */
  isStale(): boolean {
    return this.stale;
  }

  onStale(listener: Listener<boolean>): () => void {
    return this.addListener(this.staleListeners, listener);
  }

  private setStale(stale: boolean): void {
    if (stale === this.stale) return;
    this.stale = stale;
    for (const listener of this.staleListeners) listener(stale);
  }

  /**
   * The user's own events (order filled, review finished…); keeps the socket open while listened to. The server
   * does not replay what a socket missed, so `onLive` is called each time the events start reaching `listener`:
   * at once when the socket already has them, else when the server says it has (its 'ready' for the user, after
   * every connection and login). What the listener keeps fresh should be read again then: an event between the
   * page's first read and that moment, or during a reconnect, is gone.
   */
  onUserEvent(listener: Listener<TUserEvent>, onLive?: () => void): () => void {
    const remove = this.addListener(this.eventListeners, listener);
    const removeLive = onLive === undefined ? () => undefined : this.addListener(this.liveListeners, onLive);
    const release = this.hold();
    if (this.userLive) onLive?.();
    return () => {
      remove();
      removeLive();
      release();
    };
  }

  onStateChange(listener: Listener<ConnectionState>): () => void {
    return this.addListener(this.stateListeners, listener);
  }

  /** Sends a command now; throws Error('WebSocket is not connected') unless the socket is open. */
  send(command: TWsCommand): void {
    const socket = this.socket;
    if (socket === null || socket.readyState !== SOCKET_STATE.OPEN || this.state !== 'open') {
      throw new Error(NOT_CONNECTED_MESSAGE);
    }
    socket.send(JSON.stringify(command));
  }

  /** Call when the session's token changes: authenticates again, or reconnects anonymously on logout. */
  tokenChanged(): void {
    const token = this.deps.getToken();
    if (this.state !== 'open') return;
    if (token !== null && token !== '') {
      if (token !== this.authedToken) this.authenticate(token);
    } else if (this.authedToken !== null) {
      // The server has no "de-auth": start a fresh anonymous connection.
      this.restart();
    }
  }

  /** Closes the socket and forgets nothing but the connection (subscriptions stay for a later connect). */
  dispose(): void {
    this.clearAllTimers();
    this.closeSocket();
    this.attempt = 0;
    this.setState('idle');
  }

  // ---- internals ----

  private addListener<T>(set: Set<Listener<T>>, listener: Listener<T>): () => void {
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  private wanted(): boolean {
    return this.symbols.size > 0 || this.boards.size > 0 || this.holds > 0;
  }

  private demand(): void {
    if (this.lingerTimer !== null) {
      this.deps.clearTimer(this.lingerTimer);
      this.lingerTimer = null;
    }
    if (this.state === 'idle') this.connect();
  }

  private release(): void {
    if (this.wanted() || this.lingerTimer !== null) return;
    this.lingerTimer = this.deps.setTimer(() => {
      this.lingerTimer = null;
      if (!this.wanted()) this.dispose();
    }, this.deps.lingerMs);
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private connect(): void {
    this.reconnectTimer = null;
    this.setState('connecting');
    let socket: SocketLike;
    try {
      socket = this.deps.createSocket(this.deps.url());
    } catch (error) {
      this.deps.log?.('websocket: cannot connect', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.authedToken = null;
      this.setState('open');
      this.heard();
      this.startPing();
      const token = this.deps.getToken();
      if (token !== null && token !== '') this.authenticate(token);
      this.sendSymbols('subscribe', [...this.symbols.keys()]);
      if (this.boards.size > 0) this.sendBoards();
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.heard();
      this.dispatch((event as { data: unknown }).data);
    };
    socket.onerror = () => {
      // The close event follows and decides what to do.
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.dropped();
    };
  }

  private dropped(): void {
    this.clearConnectionTimers();
    this.detach();
    if (this.wanted()) this.scheduleReconnect();
    else this.setState('idle');
  }

  private scheduleReconnect(): void {
    this.setState('waiting');
    const delay = backoffDelay(
      this.attempt,
      this.deps.random,
      this.deps.backoffBaseMs,
      this.deps.backoffMaxMs,
    );
    this.attempt += 1;
    this.reconnectTimer = this.deps.setTimer(() => {
      this.reconnectTimer = null;
      if (this.wanted()) this.connect();
      else this.setState('idle');
    }, delay);
  }

  /** Drops the current socket and connects again at once (used on logout). */
  private restart(): void {
    this.clearConnectionTimers();
    this.closeSocket();
    this.attempt = 0;
    if (this.wanted()) this.connect();
    else this.setState('idle');
  }

  private authenticate(token: string): void {
    this.userLive = false;
    this.authedToken = token;
    this.trySend({ op: 'auth', token });
  }

  private sendSymbols(op: 'subscribe' | 'unsubscribe', codes: readonly string[]): void {
    if (this.state !== 'open' || codes.length === 0) return;
    for (let i = 0; i < codes.length; i += WS_MAX_SYMBOLS) {
      this.trySend({ op, symbols: codes.slice(i, i + WS_MAX_SYMBOLS) });
    }
  }

  private sendBoards(): void {
    if (this.state !== 'open') return;
    this.trySend({ op: 'board', symbols: [...this.boards.keys()].slice(0, WS_MAX_BOARDS) });
  }

  private trySend(command: TWsCommand): void {
    try {
      this.send(command);
    } catch (error) {
      this.deps.log?.('websocket: send failed', error);
    }
  }

  private dispatch(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = ZWsMessage.safeParse(json);
    if (!parsed.success) {
      this.deps.log?.('websocket: unexpected message', json);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'quote':
        for (const listener of this.quoteListeners) listener(message.quote);
        break;
      case 'index':
        for (const listener of this.indexListeners) listener(message.index);
        break;
      case 'board':
        for (const listener of this.boardListeners) listener(message.board);
        break;
      case 'event':
        for (const listener of this.eventListeners) listener(message.event);
        break;
      case 'stream':
        this.setStale(message.stale);
        break;
      case 'ready':
        // a new socket (or a new session on it): live unless the server says otherwise next
        if (message.user_id === null) {
          this.setStale(false);
        } else {
          this.userLive = true;
          for (const listener of this.liveListeners) listener();
        }
        break;
      case 'error':
        this.deps.log?.(`websocket: server error ${message.code}`, message.msg);
        if (message.code === ERRORS.UNAUTHENTICATED.code) this.refused();
        break;
      default:
        break;
    }
  }

  /**
   * The server answered 401: the token it had (the one sent last) is no good, and the socket goes on as an
   * anonymous one. The app is told only if that token is still its own; after a logout or a new login the
   * refusal is old news and tokenChanged has already dealt with it.
   */
  private refused(): void {
    const token = this.authedToken;
    this.authedToken = null;
    if (token !== null && token === this.deps.getToken()) this.deps.onRefused?.(token);
  }

  private heard(): void {
    this.lastHeardAt = this.deps.now();
    if (this.idleTimer === null) this.armIdle(this.deps.idleTimeoutMs);
  }

  /** The watchdog: fires when nothing may have been heard for idleTimeoutMs, and checks. */
  private armIdle(ms: number): void {
    this.idleTimer = this.deps.setTimer(() => {
      this.idleTimer = null;
      const silent = this.deps.now() - this.lastHeardAt;
      if (silent >= this.deps.idleTimeoutMs) {
        this.deps.log?.('websocket: silent, reconnecting');
        this.closeSocket();
        this.dropped();
      } else {
        this.armIdle(this.deps.idleTimeoutMs - silent);
      }
    }, ms);
  }

  private startPing(): void {
    this.pingTimer = this.deps.setTimer(() => {
      this.pingTimer = null;
      if (this.state !== 'open') return;
      this.trySend({ op: 'ping', t: this.deps.now() });
      this.startPing();
    }, this.deps.pingIntervalMs);
  }

  private detach(): void {
    const socket = this.socket;
    if (socket === null) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    this.socket = null;
    this.authedToken = null;
    this.userLive = false;
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.detach();
    if (socket !== null && socket.readyState < SOCKET_STATE.CLOSING) {
      try {
        socket.close(1000, 'client');
      } catch {
        // Closing a socket that failed to open may throw; it is gone either way.
      }
    }
  }

  private clearConnectionTimers(): void {
    for (const handle of [this.pingTimer, this.idleTimer]) {
      if (handle !== null) this.deps.clearTimer(handle);
    }
    this.pingTimer = null;
    this.idleTimer = null;
  }

  private clearAllTimers(): void {
    this.clearConnectionTimers();
    for (const handle of [this.reconnectTimer, this.lingerTimer]) {
      if (handle !== null) this.deps.clearTimer(handle);
    }
    this.reconnectTimer = null;
    this.lingerTimer = null;
  }
}
