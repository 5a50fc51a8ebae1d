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
  below,
  canonicalApplications,
  canonicalLine,
  checkDrawInput,
  drawKeyText,
  type DrawAllocation,
  type DrawApplication,
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
