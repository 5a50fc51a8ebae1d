/**
 * Recomputes an offering's draw from its published record alone and compares it with the recorded result:
 * the seed against the hash committed when the window opened, the canonical list against the hash published
 * at the close, then the allocation and the drawn order (docs/DRAW.md).
 *   npm run verify-draw -- <offering id | record.json | URL of /api/ipo/offerings/<id>/draw>
 * With an offering id it reads KABUTO_URL (default http://127.0.0.1:8080) and sends KABUTO_TOKEN (a signed-in
 * user's token) as the `token` header. A saved record (the in-app "verify this draw" offers it) needs nothing.
 */
import { createReadStream } from 'node:fs';
import { JsonStreamError } from '../lib/json-stream.js';
import { verifyColumns } from '../modules/ipo/draw.js';
import { readDrawRecord } from '../modules/ipo/draw-record.js';

const arg = process.argv[2];
if (!arg) {
  console.error('usage: npm run verify-draw -- <offering id | record.json | URL>');
  process.exit(2);
}

/**
 * The record's bytes as they come: the file or the response is read as a stream into columns
 * (modules/ipo/draw-record.ts), never held whole, so a million applications verify in bounded memory.
 */
async function open(source: string): Promise<AsyncIterable<Uint8Array>> {
  if (/^\d+$/.test(source) || /^https?:\/\//.test(source)) {
    const base = process.env['KABUTO_URL'] ?? 'http://127.0.0.1:8080';
    const url = /^\d+$/.test(source) ? `${base}/api/ipo/offerings/${source}/draw` : source;
    const token = process.env['KABUTO_TOKEN'];
    const res = await fetch(url, { headers: token ? { token } : {} });
    if (!res.body) throw new Error(`${url}: no body (HTTP ${res.status})`);
    return res.body;
  }
  return createReadStream(source, { highWaterMark: 1 << 20 });
}

let read;
try {
  read = await readDrawRecord(await open(arg));
} catch (error) {
  if (!(error instanceof JsonStreamError)) throw error;
  console.error(`${arg}: not a draw record (not JSON: ${error.message})`);
  process.exit(1);
}
const { code, msg, record } = read;
if (code !== undefined && code !== 1) {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  console.error(`${arg}: the server answered ${text(code)} ${text(msg)}`);
  process.exit(1);
}
if (!record) {
  console.error(`${arg}: not a draw record (no applications, allocations and order)`);
  process.exit(1);
}
if (!record.seed) {
  console.error(
    `${arg}: not drawn yet (the seed is revealed at the draw); commitment ${String(record.seed_hash)}`,
  );
  process.exit(1);
}
const problems = verifyColumns({ ...record, list_hash: record.list_hash ?? '' });
let units = 0;
for (let k = 0; k < record.allocations.length; k++) units += record.allocations.units.values[k] ?? 0;
if (problems.length === 0) {
  console.log(
    `${arg}: VERIFIED. ${record.applications.length} applications, ${record.allocations.length} winners, ${units} of ${String(record.offering_units)} units; seed and list match their published hashes`,
  );
} else {
  console.error(`${arg}: DOES NOT VERIFY: ${problems.join(', ')}`);
  process.exit(1);
}
