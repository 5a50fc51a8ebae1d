/**
 * The bare server of `bench:ws` (`BASELINE=1` or `SERVERS=…` in ws-fanout.ts): the least one Node process can
 * do for the same load, started in its own process as the bench starts the app. node:http and the same `ws`
 * (no extensions, `maxPayload` 4096 as the app registers it) on the same path, `/api/ws`, with the same
 * handshake; it takes the app's `subscribe` command as the hub does (codes upper-cased, unknown ones left out,
 * at most WS_MAX_SYMBOLS a socket) and answers it with `subscribed` and a quote a symbol, as the hub does.
 *
 * Once a beat (MARKET_TICK_MS, 1,000 ms by default, as the app) a share of the stocks (MARKET_TICK_FRACTION,
 * 0.3 as the app's simulator) "tick": each ticked stock's message is serialised and framed once, shaped like the
 * hub's (`{"type":"quote","quote":{…},"ts":…}`, about the same bytes), with `ts` stamped when the beat starts,
 * and so are the two index messages every socket gets. Then every socket gets the frames of its ticked symbols
 * and the indices, concatenated, in ONE write to its connection: what the hub does (a burst kept per socket and
 * written as one buffer, ADR 0043), so the clients read the same messages and the same bytes. Unlike the hub it
 * writes all sockets in one turn of the event loop (no slices), keeps no per-socket queue, checks no slow
 * client, pings no one and runs no database, simulator, pub/sub or Fastify.
 *
 * GET /api/health answers the bench's counters in the app's shape (`data.realtime.clients`, `dropped` always 0:
 * nobody is dropped), and `beats`: how long each beat since the last read took, from its `ts` to the last
 * socket's write returning, in ms (the bench prints them: the server's own share of the latency); GET /api/market/list the Nikkei 225 codes, in code order, from the reference data (the
 * codes the app's list gives), so that ws-fanout.ts's clients pick their symbols the same way.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { WS_MAX_SYMBOLS } from '@kabuto/contract';
import { referenceData } from '../apps/server/src/market/instruments.js';
import { universeCodes } from '../apps/server/src/market/universe.js';
import { textFrame } from '../apps/server/src/realtime/frame.js';

const port = Number(process.env['PORT'] ?? 18_400);
const host = process.env['HOST'] ?? '127.0.0.1';
const beatMs = Number(process.env['MARKET_TICK_MS'] ?? 1000);
const fraction = Number(process.env['MARKET_TICK_FRACTION'] ?? 0.3);

const codes = universeCodes('nikkei225', referenceData());
const indexOf = new Map(codes.map((code, i) => [code, i]));
const list = JSON.stringify({ code: 1, msg: 'ok', data: { items: codes.map((code) => ({ code })) } });

interface Client {
  /** its connection (a net.Socket), written to directly as the hub writes to it */
  socket: Duplex;
  /** the indexes (in `codes`) of the symbols it subscribed to */
  symbols: number[];
}
const clients = new Set<Client>();

/** A quote in the app's shape, with numbers of the sizes the simulator's have (sen, shares). */
function quoteOf(i: number, time: string) {
  const last = 100_000 + ((i * 7919) % 900_000);
  const prev = last - 150 + ((i * 37) % 300);
  const volume = 100_000 + ((i * 104_729) % 4_000_000);
  return {
    code: codes[i] ?? '',
    last,
    bid: last - 50,
    ask: last,
    open: prev + 200,
    high: last + 300,
    low: last - 900,
    prev_close: prev,
    volume,
    turnover: volume * last,
    change: last - prev,
    change_bp: Math.round(((last - prev) * 10_000) / prev),
    limit_up: prev + 30_000,
    limit_down: prev - 30_000,
    trading_date: time.slice(0, 10),
    time,
    simulated: true,
  };
}

/** The two indices in the app's shape (names included, as the simulator sends them). */
function indicesOf(time: string) {
  const day = time.slice(0, 10);
  return [
    {
      id: 'nikkei225',
      name_ja: '日経平均株価',
      name_en: 'Nikkei 225',
      level: 47854.33,
      open: 47612.71,
      high: 47929.76,
      low: 47612.71,
      prev_close: 47405.8,
      change: 448.53,
      change_bp: 95,
      trading_date: day,
      time,
      simulated: true,
    },
    {
      id: 'topix',
      name_ja: 'TOPIX',
      name_en: 'TOPIX',
      level: 3328.27,
      open: 3286.59,
      high: 3328.54,
      low: 3283.33,
      prev_close: 3276.9,
      change: 51.37,
      change_bp: 157,
      trading_date: day,
      time,
      simulated: true,
    },
  ];
}

const frames: (Buffer | undefined)[] = new Array<Buffer | undefined>(codes.length);
/** how long each beat took, from its `ts` to the last socket's write returning (ms), since /api/health last read them */
let beats: number[] = [];

function beat(): void {
  const ts = Date.now();
  const began = performance.now();
  const time = new Date(ts - (ts % 1000)).toISOString();
  // each ticked stock serialised and framed once: the same bytes for every socket that wants it
  for (let i = 0; i < codes.length; i++)
    frames[i] =
      Math.random() < fraction
        ? textFrame(JSON.stringify({ type: 'quote', quote: quoteOf(i, time), ts })).frame
        : undefined;
  const indices = indicesOf(time).map(
    (index) => textFrame(JSON.stringify({ type: 'index', index, ts })).frame,
  );
  const indexBytes = indices.reduce((sum, f) => sum + f.length, 0);
  for (const client of clients) {
    const parts: Buffer[] = [];
    let bytes = indexBytes;
    for (const i of client.symbols) {
      const frame = frames[i];
      if (frame) {
        parts.push(frame);
        bytes += frame.length;
      }
    }
    parts.push(...indices);
    // one write a socket a beat, as the hub's
    if (client.socket.writable) client.socket.write(Buffer.concat(parts, bytes));
  }
  beats.push(Math.round((performance.now() - began) * 10) / 10);
}

function json(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}

const server = createServer((req, res) => {
  const path = (req.url ?? '').split('?')[0];
  if (path === '/api/health') {
    const realtime = { clients: clients.size, dropped: 0, producing: true, beats };
    beats = [];
    json(res, JSON.stringify({ code: 1, msg: 'ok', data: { status: 'ok', realtime } }));
  } else if (path === '/api/market/list') json(res, list);
  else {
    res.writeHead(404);
    res.end();
  }
});

const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });

server.on('upgrade', (req, socket, head) => {
  if ((req.url ?? '').split('?')[0] !== '/api/ws') {
    socket.destroy();
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    const client: Client = { socket, symbols: [] };
    clients.add(client);
    const gone = () => {
      clients.delete(client);
    };
    ws.on('close', gone);
    ws.on('error', gone);
    ws.on('message', (data: Buffer, isBinary) => {
      let command: { op?: unknown; symbols?: unknown; t?: unknown };
      try {
        if (isBinary) throw new Error('binary');
        command = JSON.parse(data.toString('utf8')) as typeof command;
      } catch {
        ws.send(JSON.stringify({ type: 'error', code: 400, msg: 'invalid JSON' }));
        return;
      }
      if (command.op === 'subscribe' && Array.isArray(command.symbols)) {
        const added: number[] = [];
        for (const symbol of command.symbols) {
          const i = typeof symbol === 'string' ? indexOf.get(symbol.toUpperCase()) : undefined;
          if (i === undefined || client.symbols.includes(i)) continue;
          if (client.symbols.length >= WS_MAX_SYMBOLS) break;
          client.symbols.push(i);
          added.push(i);
        }
        ws.send(JSON.stringify({ type: 'subscribed', symbols: client.symbols.map((i) => codes[i]) }));
        const time = new Date(Date.now() - (Date.now() % 1000)).toISOString();
        for (const i of added) ws.send(JSON.stringify({ type: 'quote', quote: quoteOf(i, time) }));
      } else if (command.op === 'ping')
        ws.send(
          JSON.stringify(typeof command.t === 'number' ? { type: 'pong', t: command.t } : { type: 'pong' }),
        );
      else ws.send(JSON.stringify({ type: 'error', code: 400, msg: 'not supported by the bare server' }));
    });
    ws.send(JSON.stringify({ type: 'ready', user_id: null }));
  });
});

server.listen(port, host, () => {
  setInterval(beat, beatMs);
});
process.on('SIGTERM', () => {
  process.exit(0);
});
