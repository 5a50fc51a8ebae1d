import { describe, expect, it } from 'vitest';
import { dayNumber, hashString, mixKeys, Rng } from './random.js';

describe('Rng', () => {
  it('gives the same sequence for the same key and a different one for another key', () => {
    const take = (key: number): number[] => {
      const rng = new Rng(key);
      return Array.from({ length: 8 }, () => rng.uint32());
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
  });

  it('draws uniforms in [0, 1) and standard normals', () => {
    const rng = new Rng(7);
    let sum = 0;
    let sumSq = 0;
    let min = 1;
    let max = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const u = rng.float();
      min = Math.min(min, u);
      max = Math.max(max, u);
      const z = rng.normal();
      sum += z;
      sumSq += z * z;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(Math.abs(sum / n)).toBeLessThan(0.03);
    expect(Math.abs(sumSq / n - 1)).toBeLessThan(0.05);
  });

  it('int(n) stays in range', () => {
    const rng = new Rng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(rng.int(5));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('keys', () => {
  it('hashString and mixKeys are stable and order-sensitive', () => {
    expect(hashString('7203')).toBe(hashString('7203'));
    expect(hashString('7203')).not.toBe(hashString('7204'));
    expect(mixKeys(1, 2)).not.toBe(mixKeys(2, 1));
    expect(mixKeys(1, 2, 3)).toBe(mixKeys(1, 2, 3));
  });

  it('dayNumber matches the calendar for every day from 1999 to 2031', () => {
    const wrong: string[] = [];
    for (let t = Date.UTC(1999, 0, 1); t <= Date.UTC(2031, 11, 31); t += 86_400_000) {
      const date = new Date(t).toISOString().slice(0, 10);
      if (dayNumber(date) !== t / 86_400_000) wrong.push(date);
    }
    expect(wrong).toEqual([]);
    expect(dayNumber('1970-01-01')).toBe(0);
  });
});
