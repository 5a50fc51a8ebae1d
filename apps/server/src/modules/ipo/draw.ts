import { createCipheriv, createHash } from 'node:crypto';

/**
 * The draw of an offering (an IPO or an off-auction distribution): a pure, deterministic function of the
 * revealed seed, the hash of the canonical application list and the published policy. docs/DRAW.md
 * specifies it byte for byte so that anyone can recompute a draw from the published records; this file is
 * the reference implementation and `npm run verify-draw` runs it against the stored draw.
 */

/** One application as the canonical list publishes it: ids and pseudonyms only, no names. */
export interface DrawApplication {
  /** the application's id (a positive integer, unique within the offering) */
  id: number;
  /** the applicant's pseudonym within this offering (hex), so users can find their own entry */
  pseudonym: string;
  /** units applied for (1 unit = the offering's trading unit, 100 shares for an IPO) */
  units: number;
  /** challenge points the applicant held when the window closed (0 under the equal policy) */
  points: number;
}

/** The published allocation policy. `points_bps` is the share (basis points) reserved for challenge points. */
export type DrawPolicy = { kind: 'equal' } | { kind: 'weighted'; points_bps: number };

export interface DrawInput {
  /** the revealed seed: 32 bytes, lower-case hex */
  seed: string;
  /** units on offer to this firm's customers */
  offering_units: number;
  policy: DrawPolicy;
  applications: readonly DrawApplication[];
}

export interface DrawResult {
  /** SHA-256 of the canonical list (hex) */
  list_hash: string;
  /** units allocated per application id, only ids with at least one unit, in list order */
  allocations: Array<{ id: number; units: number }>;
  /**
   * The drawn order of every application (ids): the tie-break of the points share, the order of the
   * round-robin and the waiting list (補欠) a declined unit passes down.
   */
  order: number[];
}

/** The policy as the draw's key derivation spells it. */
export function policyText(policy: DrawPolicy): string {
  return policy.kind === 'equal' ? 'equal' : `weighted:${policy.points_bps}`;
}

/** Sorts by id ascending: the canonical order. */
export function canonicalApplications(apps: readonly DrawApplication[]): readonly DrawApplication[] {
  let sorted = true;
  let last = -Infinity;
  for (const a of apps) {
    if (a.id < last) {
      sorted = false;
      break;
    }
    last = a.id;
  }
  return sorted ? apps : [...apps].sort((a, b) => a.id - b.id);
}

/** The canonical list: one line per application, `id,pseudonym,units,points\n`, sorted by id. */
export function canonicalList(apps: readonly DrawApplication[]): string {
  const sorted = canonicalApplications(apps);
  const parts: string[] = new Array<string>(sorted.length);
  sorted.forEach((a, i) => {
    parts[i] = `${a.id},${a.pseudonym},${a.units},${a.points}\n`;
  });
  return parts.join('');
}

export function sha256Hex(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** SHA-256 of the canonical list, hashed in chunks (the same bytes as `canonicalList`, without one big string). */
export function listHash(apps: readonly DrawApplication[]): string {
  const sorted = canonicalApplications(apps);
  const hash = createHash('sha256');
  const CHUNK = 8192;
  for (let start = 0; start < sorted.length; start += CHUNK) {
    let text = '';
    const end = Math.min(sorted.length, start + CHUNK);
    for (const a of sorted.slice(start, end)) text += `${a.id},${a.pseudonym},${a.units},${a.points}\n`;
    hash.update(text);
  }
  return hash.digest('hex');
}

function sameAllocations(
  a: ReadonlyArray<{ id: number; units: number }>,
  b: ReadonlyArray<{ id: number; units: number }>,
) {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    return y !== undefined && x.id === y.id && x.units === y.units;
  });
}

function sameIds(a: readonly number[], b: readonly number[]) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The draw's random stream: AES-256-CTR keystream under key = SHA-256("kabuto-draw-v1|" seed "|" list hash
 * "|" policy "|" offering units), IV zero, read as big-endian unsigned 32-bit words.
 */
export class DrawStream {
  private readonly cipher;
  private buf = Buffer.alloc(0);
  private pos = 0;
  private static readonly ZEROS = Buffer.alloc(64 * 1024);

  constructor(seed: string, list: string, policy: DrawPolicy, offeringUnits: number) {
    const key = createHash('sha256')
      .update(`kabuto-draw-v1|${seed}|${list}|${policyText(policy)}|${offeringUnits}`)
      .digest();
    this.cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  }

  private word(): number {
    if (this.pos + 4 > this.buf.length) {
      this.buf = this.cipher.update(DrawStream.ZEROS);
      this.pos = 0;
    }
    const w = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return w;
  }

  /** A uniform integer in [0, n), n ≤ 2^32, by rejection: words ≥ the largest multiple of n are skipped. */
  below(n: number): number {
    const limit = Math.floor(0x1_0000_0000 / n) * n;
    for (;;) {
      const w = this.word();
      if (w < limit) return w % n;
    }
  }
}

/** The draw. Throws on malformed input (non-positive units, duplicate ids, a seed that is not 32 bytes of hex). */
export function draw(input: DrawInput): DrawResult {
  if (!/^[0-9a-f]{64}$/.test(input.seed)) throw new Error('seed must be 64 lower-case hex digits');
  if (!Number.isSafeInteger(input.offering_units) || input.offering_units < 0)
    throw new Error('bad offering');
  if (input.policy.kind === 'weighted') {
    const bps = input.policy.points_bps;
    if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new Error('bad points share');
  }
  const sorted = canonicalApplications(input.applications);
  const n = sorted.length;
  const ids = new Float64Array(n);
  const units = new Uint32Array(n);
  const points = new Uint32Array(n);
  let demand = 0;
  let i = 0;
  for (const a of sorted) {
    if (!Number.isSafeInteger(a.units) || a.units < 1 || a.units > 1_000_000)
      throw new Error(`bad units for ${a.id}`);
    if (!Number.isSafeInteger(a.points) || a.points < 0 || a.points > 1_000_000_000) {
      throw new Error(`bad points for ${a.id}`);
    }
    if (!Number.isSafeInteger(a.id) || a.id < 1) throw new Error(`bad id ${a.id}`);
    if (i > 0 && ids[i - 1] === a.id) throw new Error(`duplicate id ${a.id}`);
    ids[i] = a.id;
    units[i] = a.units;
    points[i] = a.points;
    demand += a.units;
    i++;
  }
  const hash = listHash(sorted);
  const stream = new DrawStream(input.seed, hash, input.policy, input.offering_units);

  // 1. The drawn order: a Fisher-Yates shuffle of the list positions, from the last position down.
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  for (let k = n - 1; k > 0; k--) {
    const j = stream.below(k + 1);
    const t = order[k] ?? 0;
    order[k] = order[j] ?? 0;
    order[j] = t;
  }

  const alloc = new Uint32Array(n);
  let left = input.offering_units;

  if (demand <= left) {
    // 2a. Not oversubscribed: everyone is filled.
    alloc.set(units);
    left -= demand;
  } else {
    if (input.policy.kind === 'weighted') {
      const pointsUnits = Math.floor((input.offering_units * input.policy.points_bps) / 10_000);
      // 2b. The lottery share, weighted by units applied: one ticket per unit, drawn without replacement.
      let lottery = input.offering_units - pointsUnits;
      const tickets = new Uint32Array(demand);
      let k = 0;
      for (let a = 0; a < n; a++) for (let u = 0; u < (units[a] ?? 0); u++) tickets[k++] = a;
      let remaining = demand;
      while (lottery > 0 && remaining > 0) {
        const j = stream.below(remaining);
        const winner = tickets[j] ?? 0;
        tickets[j] = tickets[remaining - 1] ?? 0;
        remaining--;
        alloc[winner] = (alloc[winner] ?? 0) + 1;
        lottery--;
        left--;
      }
      // 2c. The points share: one unit each to applications still without a unit, most points first, ties
      // in drawn order; applications with no points take no part.
      const rank = new Uint32Array(n);
      for (let r = 0; r < n; r++) rank[order[r] ?? 0] = r;
      // (a typed array: for a million applications, a boxed list and its sort cost tens of megabytes more)
      let count = 0;
      for (let a = 0; a < n; a++) if (alloc[a] === 0 && (points[a] ?? 0) > 0) count++;
      const candidates = new Uint32Array(count);
      count = 0;
      for (let a = 0; a < n; a++) if (alloc[a] === 0 && (points[a] ?? 0) > 0) candidates[count++] = a;
      candidates.sort((a, b) => (points[b] ?? 0) - (points[a] ?? 0) || (rank[a] ?? 0) - (rank[b] ?? 0));
      let pts = Math.min(pointsUnits, left);
      for (const a of candidates) {
        if (pts === 0) break;
        alloc[a] = 1;
        pts--;
        left--;
      }
    }
    // 2d. Round-robin in drawn order: one unit per application per pass while it still wants more.
    while (left > 0) {
      let gave = false;
      for (let r = 0; r < n && left > 0; r++) {
        const a = order[r] ?? 0;
        if ((alloc[a] ?? 0) < (units[a] ?? 0)) {
          alloc[a] = (alloc[a] ?? 0) + 1;
          left--;
          gave = true;
        }
      }
      if (!gave) break;
    }
  }

  const allocations: Array<{ id: number; units: number }> = [];
  for (let a = 0; a < n; a++) {
    const got = alloc[a] ?? 0;
    if (got > 0) allocations.push({ id: ids[a] ?? 0, units: got });
  }
  const drawn = new Array<number>(n);
  for (let r = 0; r < n; r++) drawn[r] = ids[order[r] ?? 0] ?? 0;
  return { list_hash: hash, allocations, order: drawn };
}

/** The published record of a draw, as verify-draw reads it. */
export interface DrawRecord extends DrawInput {
  /** SHA-256 of the seed bytes, published when the window opened */
  seed_hash: string;
  /** SHA-256 of the canonical list, published when the window closed */
  list_hash: string;
  allocations: Array<{ id: number; units: number }>;
  order: number[];
}

/** SHA-256 of the seed's 32 bytes (not of its hex text). */
export function seedHash(seed: string): string {
  return sha256Hex(Buffer.from(seed, 'hex'));
}

export type VerifyProblem = 'seed_hash' | 'list_hash' | 'allocations' | 'order' | 'malformed';

/** Recomputes a draw from its published record: an empty list means it matches in every field. */
export function verifyDraw(record: DrawRecord): VerifyProblem[] {
  const problems: VerifyProblem[] = [];
  let result: DrawResult;
  try {
    result = draw(record);
  } catch {
    return ['malformed'];
  }
  if (seedHash(record.seed) !== record.seed_hash) problems.push('seed_hash');
  if (result.list_hash !== record.list_hash) problems.push('list_hash');
  if (!sameAllocations(result.allocations, record.allocations)) problems.push('allocations');
  if (!sameIds(result.order, record.order)) problems.push('order');
  return problems;
}

/**
 * The waiting list (補欠): when a winner declines or lets a win lapse, its units pass to applications that
 * received nothing, in drawn order, one unit each, up to what each applied for.
 */
export function fallbackWinners(
  order: readonly number[],
  allocated: ReadonlySet<number>,
  units: number,
): number[] {
  const out: number[] = [];
  for (const id of order) {
    if (out.length >= units) break;
    if (!allocated.has(id)) out.push(id);
  }
  return out;
}
