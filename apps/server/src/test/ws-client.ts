import WebSocket from 'ws';

/** A WebSocket test client that keeps every message it receives and can wait for one. */
export class TestSocket {
  readonly messages: Record<string, unknown>[] = [];
  private waiters: {
    match: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  static open(url: string): Promise<TestSocket> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => {
        resolve(new TestSocket(socket));
      });
      socket.once('error', reject);
    });
  }

  send(command: unknown): void {
    this.socket.send(JSON.stringify(command));
  }

  /** The first message (already received or still to come) that matches, within the timeout. */
  next(
    match: (m: Record<string, unknown>) => boolean,
    timeoutMs = 10_000,
    after = 0,
  ): Promise<Record<string, unknown>> {
    const seen = this.messages.slice(after).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-3))}`,
          ),
        );
      }, timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}

export const isType =
  (type: string, extra: (m: Record<string, unknown>) => boolean = () => true) =>
  (m: Record<string, unknown>) =>
    m['type'] === type && extra(m);
