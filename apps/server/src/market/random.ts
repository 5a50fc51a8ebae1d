/**
 * Small deterministic random number tools for the simulator. Everything is keyed: a stream is seeded
 * from a hash of (seed, code, day, purpose), so any day's or minute's draws can be recomputed directly
 * without replaying the draws that came before. The integer streams use 32-bit arithmetic only
 * (Math.imul), so a key gives the same numbers on every platform; normal() adds Math.log/sin/cos.
 */

/** murmur3's 32-bit finaliser: a good avalanche of one 32-bit word. */
export function fmix32(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit hash of a string (FNV-1a over UTF-16 code units, then fmix32). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Combines 32-bit words into one key; order matters. */
export function mixKeys(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = fmix32((h ^ fmix32(part | 0)) + 0x7f4a7c15);
    h = Math.imul(h, 5) + 0xe6546b64;
  }
  return fmix32(h);
}

/** sfc32 (Chris Doty-Humphrey's small fast counter generator), seeded from one 32-bit key. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | null = null;

  constructor(key: number) {
    // splitmix32-style expansion of the key into the state words
    const s = key >>> 0;
    this.a = fmix32((s + 0x9e3779b9) >>> 0);
    this.b = fmix32((s + 0x3c6ef372) >>> 0);
    this.c = fmix32((s + 0xdaa66d2b) >>> 0);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Standard normal (Box-Muller; the second value of each pair is kept for the next call). */
  normal(): number {
    if (this.spareNormal !== null) {
      const spare = this.spareNormal;
      this.spareNormal = null;
      return spare;
    }
    const u = 1 - this.float(); // (0, 1]
    const v = this.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}

function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/**
 * Days since 1970-01-01 of a YYYY-MM-DD date (a stable integer key for a trading day). Computed
 * arithmetically (days-from-civil) because the simulator calls it for every day of every series.
 */
export function dayNumber(date: string): number {
  const y0 = digits(date, 0, 4);
  const m = digits(date, 5, 7);
  const d = digits(date, 8, 10);
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
