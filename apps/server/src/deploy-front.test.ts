import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type ClientHttp2Session } from 'node:http2';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_PATH } from '@kabuto/contract';
import { HSTS } from './plugins/transport.js';
import { createTestApp, type TestApp } from './test/harness.js';
import { describeNeeding } from './test/needs.js';
import { selfSignedPem } from '../../../scripts/lib.mjs';

/**
 * The production front as the README runs it (deploy/haproxy.cfg, ADR 0055): HAProxy from the distribution
 * with this repository's file and a certificate made for the test, in front of the server with
 * TRUST_PROXY=1. Browsers get HTTP/2 by ALPN; the server sees HTTPS through the proxy (HSTS); the app's files
 * and the live quotes' WebSocket go through. `npm test` installs HAProxy when it can (scripts/lib.mjs);
 * without it this suite is reported as not run, and CI fails.
 */
const CONFIG = fileURLToPath(new URL('../../../deploy/haproxy.cfg', import.meta.url));

/** A port free on loopback now (HAProxy binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

/** One request over an HTTP/2 session: status, headers and body. */
function get(
  session: ClientHttp2Session,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path });
    let headers: Record<string, unknown> = {};
    let body = '';
    stream.on('response', (h) => {
      headers = h;
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => {
      resolve({ status: Number(headers[':status']), headers, body });
    });
    stream.on('error', reject);
    stream.end();
  });
}

describeNeeding('haproxy', 'the production front (deploy/haproxy.cfg)', (haproxy) => {
  const dir = mkdtempSync(join(tmpdir(), 'kabuto-front-'));
  let t: TestApp;
  let front: ChildProcess | undefined;
  let origin = '';

  beforeAll(async () => {
    const dist = join(dir, 'web');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kabuto</title>');
    writeFileSync(join(dist, 'assets', 'app-Ab12Cd34.js'), 'export const app = 1;');
    t = await createTestApp({ TRUST_PROXY: '1', WEB_DIST: dist, CONSOLE_DIST: dist });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const serverPort = typeof address === 'object' && address ? address.port : 0;

    const pem = selfSignedPem(dir);

    const port = await freePort();
    origin = `https://127.0.0.1:${String(port)}`;
    const env = {
      ...process.env,
      KABUTO_BIND: `127.0.0.1:${String(port)}`,
      KABUTO_CERT: pem,
      KABUTO_SERVER: `127.0.0.1:${String(serverPort)}`,
    };
    const check = spawnSync(haproxy, ['-c', '-f', CONFIG], { env, encoding: 'utf8' });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    front = spawn(haproxy, ['-db', '-f', CONFIG], { env, stdio: 'ignore' });
    // until the front answers (its health check has then found the server up)
    const deadline = Date.now() + 15_000;
    for (;;) {
      const session = connect(origin, { rejectUnauthorized: false });
      session.on('error', () => undefined);
      const answer = await get(session, '/api/health').catch(() => undefined);
      session.close();
      if (answer?.status === 200) break;
      if (Date.now() > deadline) throw new Error('HAProxy did not answer within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    front?.kill();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('speaks HTTP/2 to the browser, and the server behind it sees HTTPS (HSTS)', async () => {
    const session = connect(origin, { rejectUnauthorized: false });
    try {
      const health = await get(session, '/api/health?lang=en');
      expect(session.alpnProtocol).toBe('h2');
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toMatchObject({ code: 1, data: { status: 'ok' } });
      expect(health.headers['strict-transport-security']).toBe(HSTS);
      // the app's files come through the same connection, with their own headers
      const script = await get(session, '/japan1/assets/app-Ab12Cd34.js');
      expect(script.status).toBe(200);
      expect(script.body).toBe('export const app = 1;');
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(script.headers['x-content-type-options']).toBe('nosniff');
      const page = await get(session, '/japan1/');
      expect(page.status).toBe(200);
      expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    } finally {
      session.close();
    }
  });

  it("passes the live quotes' WebSocket through, from a page of its own origin", async () => {
    const socket = new WebSocket(`${origin.replace(/^https:/, 'wss:')}${WS_PATH}?lang=en`, {
      rejectUnauthorized: false,
      headers: { origin },
    });
    const first = await new Promise<unknown>((resolve, reject) => {
      socket.once('message', (data: Buffer) => {
        resolve(JSON.parse(data.toString('utf8')));
      });
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => {
        reject(new Error(`the upgrade was answered ${String(response.statusCode)}`));
      });
    });
    socket.close();
    expect(first).toEqual({ type: 'ready', user_id: null });
  });
});
