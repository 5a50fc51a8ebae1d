/**
 * Small deterministic random number tools for the simulator. Everything is keyed: a stream is seeded
 * from a hash of (seed, code, day, purpose), so any day's or minute's draws can be recomputed directly
 * without replaying the draws that came before. 32-bit integer arithmetic only (Math.imul), so the
 * same key gives the same numbers on every platform.
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
    // splitmix32-style expansion of the key into the four state words
    let s = key >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      return fmix32(s);
    };
    this.a = next();
    this.b = next();
    this.c = next();
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

/** Days since 1970-01-01 of a YYYY-MM-DD date (a stable integer key for a trading day). */
export function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}
