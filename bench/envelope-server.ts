/**
 * One of the two servers the envelope benchmark compares, started in its own process:
 *   fastify: the real app (Fastify, zod validation and serialization, session lookup on PGlite) with a
 *            logged-in user, answering GET /api/index/getUserInfo;
 *   bare:    node:http answering the same JSON bytes for any request.
 * Prints one JSON line {port, token} when it listens.
 */
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { invitationCodes } from '../apps/server/src/db/schema.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import type { SmsMessage } from '../apps/server/src/lib/sms.js';

const mode = process.argv[2];

async function fastifyServer(): Promise<{ port: number; token: string; sample: string }> {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-bench-')),
    LOG_LEVEL: 'silent',
    DEMO_MODE: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const database = await openDatabase({ url: process.env['DATABASE_URL'] });
  await database.migrate();
  await database.db.insert(invitationCodes).values({ code: 'BENCH', kind: 'campaign' }).onConflictDoNothing();
  let code = '';
  const sms = {
    kind: 'bench',
    send: async (m: SmsMessage) => {
      code = m.code ?? code;
    },
  };
  const app = await buildApp({ config, database, clock: systemClock, sms, logger: false });
  const phone = `080${String(Date.now()).slice(-8)}`;
  const call = async (url: string, payload: object) =>
    (await app.inject({ method: 'POST', url, payload })).json<{ data: { token?: string } }>();
  await call('/api/auth/sendSmsCode', { phone });
  await call('/api/auth/register', {
    phone,
    password: 'bench123',
    password_confirm: 'bench123',
    invite_code: 'BENCH',
    sms_code: code,
  });
  const token =
    (await call('/api/auth/login', { account: phone, password: 'bench123', agree: true })).data.token ?? '';
  const sample = (await app.inject({ url: '/api/index/getUserInfo', headers: { token } })).body;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, token, sample };
}

async function bareServer(sample: string): Promise<{ port: number }> {
  const bytes = Buffer.from(sample);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0 };
}

if (mode === 'fastify') {
  console.log(JSON.stringify(await fastifyServer()));
} else if (mode === 'bare') {
  console.log(JSON.stringify(await bareServer(process.argv[3] ?? '{}')));
} else {
  console.error('usage: envelope-server.ts fastify|bare [sample-json]');
  process.exit(2);
}
