/**
 * The draw of an offering, the part that is the same wherever it runs: the canonical list, the policy's text
 * and the allocation from a stream of random words (docs/DRAW.md). The server draws with Node's crypto
 * (apps/server/src/modules/ipo/draw.ts); the app's "verify this draw" recomputes it in the browser with Web
 * Crypto (`verifyDrawInBrowser` below), from the published record alone, with this same code.
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

export interface DrawAllocation {
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

/** The text the draw's key is the SHA-256 of. */
export function drawKeyText(
  seed: string,
  listHash: string,
  policy: DrawPolicy,
  offeringUnits: number,
): string {
  return `kabuto-draw-v1|${seed}|${listHash}|${policyText(policy)}|${offeringUnits}`;
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

/** One line of the canonical list: `id,pseudonym,units,points\n`. */
export function canonicalLine(a: DrawApplication): string {
  return `${a.id},${a.pseudonym},${a.units},${a.points}\n`;
}

/** Throws on malformed input: a bad seed, offering or points share, non-positive units, duplicate ids. */
export function checkDrawInput(
  seed: string,
  offeringUnits: number,
  policy: DrawPolicy,
  sorted: readonly DrawApplication[],
): void {
  if (!/^[0-9a-f]{64}$/.test(seed)) throw new Error('seed must be 64 lower-case hex digits');
  if (!Number.isSafeInteger(offeringUnits) || offeringUnits < 0) throw new Error('bad offering');
  if (policy.kind === 'weighted') {
    const bps = policy.points_bps;
    if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new Error('bad points share');
  }
  let last = 0;
  for (const a of sorted) {
    if (!Number.isSafeInteger(a.units) || a.units < 1 || a.units > 1_000_000)
      throw new Error(`bad units for ${a.id}`);
    if (!Number.isSafeInteger(a.points) || a.points < 0 || a.points > 1_000_000_000) {
      throw new Error(`bad points for ${a.id}`);
    }
    if (!Number.isSafeInteger(a.id) || a.id < 1) throw new Error(`bad id ${a.id}`);
    if (a.id === last) throw new Error(`duplicate id ${a.id}`);
    last = a.id;
  }
}

/** A uniform integer in [0, n), n ≤ 2^32, by rejection: words ≥ the largest multiple of n are skipped. */
export function below(word: () => number, n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  for (;;) {
    const w = word();
    if (w < limit) return w % n;
  }
}

/**
 * The canonical list as columns: position `i` (in canonical order, ids ascending) is the application
 * `ids[i]` with `units[i]` units and `points[i]` points. A verifier reads a million applications into these
 * without a million objects; only the first `length` entries are used.
 */
export interface DrawColumns {
  length: number;
  ids: Float64Array;
  units: Uint32Array;
  points: Uint32Array;
}

/** The allocation by list position: `alloc[i]` units for position `i`; `order[r]` the position drawn `r`-th. */
export interface DrawPositions {
  alloc: Uint32Array;
  order: Uint32Array;
}

/**
 * The allocation (docs/DRAW.md, "The draw") from the canonical (checked, sorted) list as columns and the
 * draw's random words (`word` answers the next big-endian unsigned 32-bit word of the AES-256-CTR keystream).
 */
export function allocatePositions(
  list: DrawColumns,
  offeringUnits: number,
  policy: DrawPolicy,
  word: () => number,
): DrawPositions {
  const n = list.length;
  const { units, points } = list;
  let demand = 0;
  for (let i = 0; i < n; i++) demand += units[i] ?? 0;

  // 1. The drawn order: a Fisher-Yates shuffle of the list positions, from the last position down.
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  for (let k = n - 1; k > 0; k--) {
    const j = below(word, k + 1);
    const t = order[k] ?? 0;
    order[k] = order[j] ?? 0;
    order[j] = t;
  }

  const alloc = new Uint32Array(n);
  let left = offeringUnits;

  if (demand <= left) {
    // 2a. Not oversubscribed: everyone is filled.
    alloc.set(units.subarray(0, n));
    left -= demand;
  } else {
    if (policy.kind === 'weighted') {
      const pointsUnits = Math.floor((offeringUnits * policy.points_bps) / 10_000);
      // 2b. The lottery share, weighted by units applied: one ticket per unit, drawn without replacement.
      // The tickets array of docs/DRAW.md is not built (it has one entry per unit applied, 22 MB for a
      // million applications of 5.5 units on average): ticket k untouched belongs to the application whose
      // units cover k in canonical order (a binary search over the running sums), and the few entries the
      // draw overwrites (two per unit drawn at most) are kept aside in `moved`. Same tickets, same draw.
      let lottery = offeringUnits - pointsUnits;
      const upTo = new Float64Array(n + 1);
      for (let a = 0; a < n; a++) upTo[a + 1] = (upTo[a] ?? 0) + (units[a] ?? 0);
      const moved = new Map<number, number>();
      const ticket = (k: number): number => {
        const m = moved.get(k);
        if (m !== undefined) return m;
        // the last application a with upTo[a] <= k
        let lo = 0;
        let hi = n - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >>> 1;
          if ((upTo[mid] ?? 0) <= k) lo = mid;
          else hi = mid - 1;
        }
        return lo;
      };
      let remaining = demand;
      while (lottery > 0 && remaining > 0) {
        const j = below(word, remaining);
        const winner = ticket(j);
        moved.set(j, ticket(remaining - 1));
        moved.delete(remaining - 1);
        remaining--;
        alloc[winner] = (alloc[winner] ?? 0) + 1;
        lottery--;
        left--;
      }
      // 2c. The points share: one unit each to applications still without a unit, most points first, ties
      // in drawn order; applications with no points take no part. (A typed array: for a million
      // applications, a boxed list and its sort cost tens of megabytes more.)
      const rank = new Uint32Array(n);
      for (let r = 0; r < n; r++) rank[order[r] ?? 0] = r;
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
  return { alloc, order };
}

/** The canonical (checked, sorted) list as columns. */
export function drawColumns(sorted: readonly DrawApplication[]): DrawColumns {
  const n = sorted.length;
  const ids = new Float64Array(n);
  const units = new Uint32Array(n);
  const points = new Uint32Array(n);
  sorted.forEach((a, i) => {
    ids[i] = a.id;
    units[i] = a.units;
    points[i] = a.points;
  });
  return { length: n, ids, units, points };
}

/**
 * The allocation, from the canonical (checked, sorted) list and the draw's random words, as the published
 * record spells it: allocations and drawn order by application id.
 */
export function allocate(
  sorted: readonly DrawApplication[],
  offeringUnits: number,
  policy: DrawPolicy,
  word: () => number,
): DrawAllocation {
  const list = drawColumns(sorted);
  const { alloc, order } = allocatePositions(list, offeringUnits, policy, word);
  const { ids } = list;
  const n = list.length;
  const allocations: Array<{ id: number; units: number }> = [];
  for (let a = 0; a < n; a++) {
    const got = alloc[a] ?? 0;
    if (got > 0) allocations.push({ id: ids[a] ?? 0, units: got });
  }
  const drawn = new Array<number>(n);
  for (let r = 0; r < n; r++) drawn[r] = ids[order[r] ?? 0] ?? 0;
  return { allocations, order: drawn };
}

/** A published draw record, as the app reads it from `GET /api/ipo/offerings/{id}/draw`. */
export interface PublishedDraw {
  seed: string;
  seed_hash: string;
  list_hash: string;
  offering_units: number;
  policy: DrawPolicy;
  applications: readonly DrawApplication[];
  allocations: ReadonlyArray<{ id: number; units: number }>;
  order: readonly number[];
}

export type DrawProblem = 'seed_hash' | 'list_hash' | 'allocations' | 'order' | 'malformed';

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

class KeystreamExhausted extends Error {}

/**
 * Recomputes a draw from its published record with Web Crypto (the browser's, or Node's `globalThis.crypto`),
 * and compares every field: an empty list means it matches. The keystream is made up front, one word per
 * position and unit drawn plus a margin, and doubled and drawn again in the rare case rejection needs more.
 */
export async function verifyDrawInBrowser(
  record: PublishedDraw,
  subtle: typeof globalThis.crypto.subtle = globalThis.crypto.subtle,
  /** the keystream's first length in words (tests make it short to take the doubling path) */
  firstWords = record.applications.length + record.offering_units + 1024,
): Promise<DrawProblem[]> {
  const sorted = canonicalApplications(record.applications);
  try {
    checkDrawInput(record.seed, record.offering_units, record.policy, sorted);
  } catch {
    return ['malformed'];
  }
  const seedBytes = new Uint8Array(record.seed.match(/../g)?.map((h) => parseInt(h, 16)) ?? []);
  const encoder = new TextEncoder();
  const listHash = hex(await subtle.digest('SHA-256', encoder.encode(sorted.map(canonicalLine).join(''))));
  const keyBytes = await subtle.digest(
    'SHA-256',
    encoder.encode(drawKeyText(record.seed, listHash, record.policy, record.offering_units)),
  );
  const key = await subtle.importKey('raw', keyBytes, { name: 'AES-CTR' }, false, ['encrypt']);
  let words = Math.max(1, firstWords);
  let result: DrawAllocation | undefined;
  while (!result) {
    const stream = new DataView(
      await subtle.encrypt(
        { name: 'AES-CTR', counter: new Uint8Array(16), length: 128 },
        key,
        new Uint8Array(words * 4),
      ),
    );
    let position = 0;
    const word = () => {
      if (position + 4 > stream.byteLength) throw new KeystreamExhausted();
      const w = stream.getUint32(position);
      position += 4;
      return w;
    };
    try {
      result = allocate(sorted, record.offering_units, record.policy, word);
    } catch (error) {
      if (!(error instanceof KeystreamExhausted)) throw error;
      words *= 2;
    }
  }
  const problems: DrawProblem[] = [];
  if (hex(await subtle.digest('SHA-256', seedBytes)) !== record.seed_hash) problems.push('seed_hash');
  if (listHash !== record.list_hash) problems.push('list_hash');
  const same = (a: { id: number; units: number }, i: number) =>
    record.allocations[i]?.id === a.id && record.allocations[i].units === a.units;
  if (result.allocations.length !== record.allocations.length || !result.allocations.every(same)) {
    problems.push('allocations');
  }
  if (result.order.length !== record.order.length || result.order.some((id, i) => record.order[i] !== id)) {
    problems.push('order');
  }
  return problems;
}
