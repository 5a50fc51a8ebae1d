import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ERRORS } from '@kabuto/contract';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestSocket, isType } from '../test/ws-client.js';
import { originAllowed } from './routes.js';

/**
 * The socket's handshake (issue 22, ADR 0032): a browser page of another origin is refused, and one client
 * address holds at most WS_MAX_PER_CLIENT sockets; a closed socket frees its place.
 */
let t: TestApp;
let port = 0;
let url = '';
beforeAll(async () => {
  t = await createTestApp({ WS_MAX_PER_CLIENT: '3', WS_ALLOWED_ORIGINS: 'http://localhost:5173' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  url = `ws://127.0.0.1:${port}/api/ws?lang=en`;
});
afterAll(() => t.close());

/** The handshake's outcome: open (then closed by us), or the HTTP status and envelope of a refusal. */
function handshake(
  headers: Record<string, string>,
): Promise<{ opened: boolean; status?: number; body?: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      resolve({ opened: true });
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => {
        resolve({ opened: false, status: response.statusCode ?? 0, body });
      });
    });
    socket.once('error', reject);
  });
}

describe('the origin of a WebSocket', () => {
  it('accepts this origin, a configured one, and a client that is no browser page (no Origin)', async () => {
    expect(await handshake({ origin: `http://127.0.0.1:${port}` })).toEqual({ opened: true });
    expect(await handshake({ origin: 'http://localhost:5173' })).toEqual({ opened: true });
    expect(await handshake({})).toEqual({ opened: true });
  });

  it('refuses a page of another origin before the upgrade, with the envelope', async () => {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${port + 1}`]) {
      const result = await handshake({ origin });
      expect(result.opened, origin).toBe(false);
      expect(result.status).toBe(403);
      expect(JSON.parse(result.body ?? '{}')).toEqual({
        code: ERRORS.WS_ORIGIN_REFUSED.code,
        msg: 'This page may not open a live connection to Kabuto',
        data: null,
      });
    }
  });

  it('compares hosts, not strings that merely start alike', () => {
    expect(originAllowed('http://example.com.evil.test', 'example.com', [])).toBe(false);
    expect(originAllowed('https://example.com', 'example.com', [])).toBe(true);
    expect(originAllowed('not a url', 'example.com', [])).toBe(false);
  });
});

describe('the number of sockets one client holds', () => {
  it('refuses the fourth with 429 while three are open, and accepts one again once a socket closes', async () => {
    const open = await Promise.all([1, 2, 3].map(() => TestSocket.open(url)));
    for (const s of open) await s.next(isType('ready'));
    const fourth = await handshake({});
    expect(fourth.opened).toBe(false);
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.body ?? '{}')).toMatchObject({ code: ERRORS.WS_TOO_MANY.code });

    const closed = new Promise((resolve) => open[0]?.socket.once('close', resolve));
    open[0]?.socket.close();
    await closed;
    await expect.poll(async () => (await handshake({})).opened).toBe(true);
    for (const s of open.slice(1)) s.socket.close();
  });
});
