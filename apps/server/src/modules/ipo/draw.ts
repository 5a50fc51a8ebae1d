/**
 * The draw of an offering (an IPO or an off-auction distribution): a pure, deterministic function of the
 * revealed seed, the hash of the canonical application list and the published policy. docs/DRAW.md
 * specifies it byte for byte so that anyone can recompute a draw from the published records; this file is
 * the reference implementation (with the allocation shared with the browser's verifier in
 * @kabuto/contract/draw) and `npm run verify-draw` runs it against the stored draw.
 */
import { createCipheriv, createHash } from 'node:crypto';
import {
  allocate,
  allocatePositions,
  below,
  canonicalApplications,
  canonicalLine,
  checkDrawInput,
  drawKeyText,
  type DrawAllocation,
  type DrawApplication,
  type DrawColumns,
  type DrawPolicy,
} from '@kabuto/contract/draw';

export type { DrawApplication, DrawPolicy } from '@kabuto/contract/draw';
export { canonicalApplications, policyText } from '@kabuto/contract/draw';

export interface DrawInput {
  /** the revealed seed: 32 bytes, lower-case hex */
  seed: string;
  /** units on offer to this firm's customers */
  offering_units: number;
  policy: DrawPolicy;
  applications: readonly DrawApplication[];
}

export interface DrawResult extends DrawAllocation {
  /** SHA-256 of the canonical list (hex) */
  list_hash: string;
}

/** The canonical list: one line per application, `id,pseudonym,units,points\n`, sorted by id. */
export function canonicalList(apps: readonly DrawApplication[]): string {
  const sorted = canonicalApplications(apps);
  const parts: string[] = new Array<string>(sorted.length);
  sorted.forEach((a, i) => {
    parts[i] = canonicalLine(a);
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
    for (const a of sorted.slice(start, end)) text += canonicalLine(a);
    hash.update(text);
  }
  return hash.digest('hex');
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
      .update(drawKeyText(seed, list, policy, offeringUnits))
      .digest();
    this.cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  }

  word(): number {
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
    return below(() => this.word(), n);
  }
}

/** The draw. Throws on malformed input (non-positive units, duplicate ids, a seed that is not 32 bytes of hex). */
export function draw(input: DrawInput): DrawResult {
  const sorted = canonicalApplications(input.applications);
  checkDrawInput(input.seed, input.offering_units, input.policy, sorted);
  const hash = listHash(sorted);
  const stream = new DrawStream(input.seed, hash, input.policy, input.offering_units);
  return { list_hash: hash, ...allocate(sorted, input.offering_units, input.policy, () => stream.word()) };
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
  const applications = new ApplicationColumns(record.applications.length);
  for (const a of record.applications) applications.push(a);
  const allocations = new AllocationColumns(record.allocations.length);
  for (const a of record.allocations) allocations.push(a);
  const order = new NumberColumn(record.order.length);
  for (const id of record.order) order.push(id);
  return verifyColumns({ ...record, applications, allocations, order });
}

/** A growing column of numbers read from a record; `bad` once something that is not a number came. */
export class NumberColumn {
  length = 0;
  values: Float64Array;
  bad = false;

  constructor(capacity = 1024) {
    this.values = new Float64Array(Math.max(16, capacity));
  }

  push(v: unknown): void {
    if (typeof v !== 'number') {
      this.bad = true;
      return;
    }
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = v;
  }
}

/** A record's allocations (`{id, units}`) as two columns. */
export class AllocationColumns {
  readonly ids: NumberColumn;
  readonly units: NumberColumn;

  constructor(capacity = 1024) {
    this.ids = new NumberColumn(capacity);
    this.units = new NumberColumn(capacity);
  }

  get length(): number {
    return this.ids.length;
  }

  get bad(): boolean {
    return this.ids.bad || this.units.bad;
  }

  push(a: unknown): void {
    if (typeof a !== 'object' || a === null) {
      this.ids.bad = true;
      return;
    }
    const { id, units } = a as { id?: unknown; units?: unknown };
    this.ids.push(id);
    this.units.push(units);
  }
}

const MAX_UNITS = 1_000_000;
const MAX_POINTS = 1_000_000_000;

/**
 * The canonical list read into columns (the draw's `DrawColumns`), the pseudonyms' UTF-8 bytes in one
 * buffer: what a verifier holds for a million applications instead of a million objects. `push` checks each
 * application as `checkDrawInput` does and keeps the first problem; `canonical` sorts by id if needed and
 * refuses duplicate ids; `listHash` hashes the canonical list's bytes (docs/DRAW.md) chunk by chunk.
 */
export class ApplicationColumns implements DrawColumns {
  length = 0;
  ids: Float64Array;
  units: Uint32Array;
  points: Uint32Array;
  /** the first reason the list cannot be drawn, or null */
  problem: string | null = null;
  private starts: Uint32Array;
  private sizes: Uint32Array;
  private text: Buffer;
  private used = 0;
  private sorted = true;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.ids = new Float64Array(n);
    this.units = new Uint32Array(n);
    this.points = new Uint32Array(n);
    this.starts = new Uint32Array(n);
    this.sizes = new Uint32Array(n);
    this.text = Buffer.allocUnsafe(n * 16);
  }

  push(a: unknown): void {
    if (this.problem !== null) return;
    if (typeof a !== 'object' || a === null) {
      this.problem = 'an application that is not an object';
      return;
    }
    const { id, pseudonym, units, points } = a as Record<string, unknown>;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      this.problem = `bad id ${String(id)}`;
      return;
    }
    if (typeof units !== 'number' || !Number.isSafeInteger(units) || units < 1 || units > MAX_UNITS) {
      this.problem = `bad units for ${id}`;
      return;
    }
    if (typeof points !== 'number' || !Number.isSafeInteger(points) || points < 0 || points > MAX_POINTS) {
      this.problem = `bad points for ${id}`;
      return;
    }
    if (typeof pseudonym !== 'string') {
      this.problem = `bad pseudonym for ${id}`;
      return;
    }
    const k = this.length;
    if (k === this.ids.length) this.grow();
    if (k > 0 && id < (this.ids[k - 1] ?? 0)) this.sorted = false;
    this.ids[k] = id;
    this.units[k] = units;
    this.points[k] = points;
    const size = Buffer.byteLength(pseudonym, 'utf8');
    if (this.used + size > this.text.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.text.length * 2, this.used + size));
      this.text.copy(grown, 0, 0, this.used);
      this.text = grown;
    }
    this.starts[k] = this.used;
    this.sizes[k] = size;
    this.used += this.text.write(pseudonym, this.used, size, 'utf8');
    this.length = k + 1;
  }

  private grow(): void {
    const n = this.ids.length * 2;
    const ids = new Float64Array(n);
    ids.set(this.ids);
    this.ids = ids;
    const units = new Uint32Array(n);
    units.set(this.units);
    this.units = units;
    const points = new Uint32Array(n);
    points.set(this.points);
    this.points = points;
    const starts = new Uint32Array(n);
    starts.set(this.starts);
    this.starts = starts;
    const sizes = new Uint32Array(n);
    sizes.set(this.sizes);
    this.sizes = sizes;
  }

  /**
   * Puts the list in canonical order (ids ascending) when it was not; records duplicate ids as a problem.
   * Answers the list's problem, or null.
   */
  canonical(): string | null {
    const n = this.length;
    if (!this.sorted) {
      const { ids } = this;
      const by = new Uint32Array(n);
      for (let i = 0; i < n; i++) by[i] = i;
      by.sort((a, b) => (ids[a] ?? 0) - (ids[b] ?? 0) || a - b);
      const permute = <T extends Float64Array | Uint32Array>(column: T, fresh: T): T => {
        for (let i = 0; i < n; i++) fresh[i] = column[by[i] ?? 0] ?? 0;
        return fresh;
      };
      this.ids = permute(this.ids, new Float64Array(n));
      this.units = permute(this.units, new Uint32Array(n));
      this.points = permute(this.points, new Uint32Array(n));
      this.starts = permute(this.starts, new Uint32Array(n));
      this.sizes = permute(this.sizes, new Uint32Array(n));
      this.sorted = true;
    }
    for (let i = 1; i < n; i++) {
      if (this.ids[i] === this.ids[i - 1]) {
        this.problem ??= `duplicate id ${this.ids[i] ?? 0}`;
        break;
      }
    }
    return this.problem;
  }

  /** SHA-256 (hex) of the canonical list's bytes, `id,pseudonym,units,points\n` per application, in this order. */
  listHash(): string {
    const hash = createHash('sha256');
    const out = Buffer.allocUnsafe(1 << 16);
    // room for an id (16 digits), units (7), points (10) and the separators
    const NUMBERS = 40;
    let pos = 0;
    for (let i = 0; i < this.length; i++) {
      const start = this.starts[i] ?? 0;
      const size = this.sizes[i] ?? 0;
      if (pos + size + NUMBERS > out.length) {
        hash.update(out.subarray(0, pos));
        pos = 0;
      }
      pos = writeDecimal(out, pos, this.ids[i] ?? 0);
      out[pos++] = 0x2c;
      if (size + NUMBERS > out.length) {
        // a pseudonym longer than the buffer (not one the server writes): hashed as it is
        hash.update(out.subarray(0, pos));
        hash.update(this.text.subarray(start, start + size));
        pos = 0;
      } else {
        this.text.copy(out, pos, start, start + size);
        pos += size;
      }
      out[pos++] = 0x2c;
      pos = writeDecimal(out, pos, this.units[i] ?? 0);
      out[pos++] = 0x2c;
      pos = writeDecimal(out, pos, this.points[i] ?? 0);
      out[pos++] = 0x0a;
    }
    hash.update(out.subarray(0, pos));
    return hash.digest('hex');
  }
}

/** Writes a non-negative safe integer in decimal ASCII at `pos`; answers the position after it. */
function writeDecimal(out: Buffer, pos: number, value: number): number {
  let digits = 1;
  for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
  let v = value;
  for (let k = pos + digits - 1; k >= pos; k--) {
    out[k] = 0x30 + (v % 10);
    v = Math.floor(v / 10);
  }
  return pos + digits;
}

/** A draw record with its lists as columns, as `verifyColumns` takes it (a streamed record, or `verifyDraw`'s). */
export interface ColumnRecord {
  seed: unknown;
  seed_hash: unknown;
  list_hash: unknown;
  offering_units: unknown;
  policy: unknown;
  applications: ApplicationColumns;
  allocations: AllocationColumns;
  order: NumberColumn;
}

/** The published policy, or null when the record's is not one. */
function readPolicy(policy: unknown): DrawPolicy | null {
  if (typeof policy !== 'object' || policy === null) return null;
  const { kind, points_bps } = policy as { kind?: unknown; points_bps?: unknown };
  if (kind === 'equal') return { kind: 'equal' };
  if (kind !== 'weighted' || typeof points_bps !== 'number') return null;
  if (!Number.isInteger(points_bps) || points_bps < 0 || points_bps > 10_000) return null;
  return { kind: 'weighted', points_bps };
}

/**
 * Recomputes a draw from its record in columns and compares every field (docs/DRAW.md, "Verifying"): an
 * empty list means it matches. The same checks, hashes and allocation as `draw`, with no object per
 * application.
 */
export function verifyColumns(record: ColumnRecord): VerifyProblem[] {
  const { seed, offering_units: offering, applications: list } = record;
  const policy = readPolicy(record.policy);
  if (typeof seed !== 'string' || !/^[0-9a-f]{64}$/.test(seed)) return ['malformed'];
  if (typeof offering !== 'number' || !Number.isSafeInteger(offering) || offering < 0) return ['malformed'];
  if (!policy || list.problem !== null) return ['malformed'];
  if (list.canonical() !== null) return ['malformed'];

  const hash = list.listHash();
  const stream = new DrawStream(seed, hash, policy, offering);
  const { alloc, order } = allocatePositions(list, offering, policy, () => stream.word());

  const problems: VerifyProblem[] = [];
  if (seedHash(seed) !== record.seed_hash) problems.push('seed_hash');
  if (hash !== record.list_hash) problems.push('list_hash');

  const { ids } = list;
  const n = list.length;
  const published = record.allocations;
  let same = !published.bad;
  let k = 0;
  for (let a = 0; a < n && same; a++) {
    const got = alloc[a] ?? 0;
    if (got === 0) continue;
    same = k < published.length && published.ids.values[k] === ids[a] && published.units.values[k] === got;
    k++;
  }
  if (!same || k !== published.length) problems.push('allocations');

  const drawn = record.order;
  let sameOrder = !drawn.bad && drawn.length === n;
  for (let r = 0; r < n && sameOrder; r++) sameOrder = drawn.values[r] === ids[order[r] ?? 0];
  if (!sameOrder) problems.push('order');
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
