/**
 * Recomputes an offering's draw from its published record alone and compares it with the recorded result:
 * the seed against the hash committed when the window opened, the canonical list against the hash published
 * at the close, then the allocation and the drawn order (docs/DRAW.md).
 *   npm run verify-draw -- <offering id | record.json | URL of /api/ipo/offerings/<id>/draw>
 * With an offering id it reads KABUTO_URL (default http://127.0.0.1:8080) and sends KABUTO_TOKEN (a signed-in
 * user's token) as the `token` header. A saved record (the in-app "verify this draw" offers it) needs nothing.
 */
import { readFileSync } from 'node:fs';
import { verifyDraw, type DrawRecord } from '../modules/ipo/draw.js';

const arg = process.argv[2];
if (!arg) {
  console.error('usage: npm run verify-draw -- <offering id | record.json | URL>');
  process.exit(2);
}

async function load(source: string): Promise<unknown> {
  if (/^\d+$/.test(source) || /^https?:\/\//.test(source)) {
    const base = process.env['KABUTO_URL'] ?? 'http://127.0.0.1:8080';
    const url = /^\d+$/.test(source) ? `${base}/api/ipo/offerings/${source}/draw` : source;
    const token = process.env['KABUTO_TOKEN'];
    const res = await fetch(url, { headers: token ? { token } : {} });
    return res.json();
  }
  return JSON.parse(readFileSync(source, 'utf8')) as unknown;
}

const raw = (await load(arg)) as { data?: unknown; code?: number; msg?: string };
if (raw.code !== undefined && raw.code !== 1) {
  console.error(`${arg}: the server answered ${String(raw.code)} ${String(raw.msg)}`);
  process.exit(1);
}
const record = (raw.data ?? raw) as Omit<DrawRecord, 'seed' | 'list_hash'> & {
  seed: string | null;
  list_hash: string | null;
};
if (!record.seed) {
  console.error(`${arg}: not drawn yet (the seed is revealed at the draw); commitment ${record.seed_hash}`);
  process.exit(1);
}
const problems = verifyDraw({ ...record, seed: record.seed, list_hash: record.list_hash ?? '' });
const units = record.allocations.reduce((s, a) => s + a.units, 0);
if (problems.length === 0) {
  console.log(
    `${arg}: VERIFIED. ${record.applications.length} applications, ${record.allocations.length} winners, ${units} of ${record.offering_units} units; seed and list match their published hashes`,
  );
} else {
  console.error(`${arg}: DOES NOT VERIFY: ${problems.join(', ')}`);
  process.exit(1);
}
