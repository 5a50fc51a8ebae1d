import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalList,
  draw,
  DrawStream,
  fallbackWinners,
  listHash,
  seedHash,
  verifyDraw,
  type DrawApplication,
  type DrawPolicy,
  type DrawRecord,
} from './draw.js';
import { verifyDrawInBrowser } from '@kabuto/contract/draw';

/**
 * The draw's rules and its verification. DRAW_RUNS sets the property runs: 200 in `npm test`;
 * `DRAW_RUNS=2000 npx vitest run apps/server/src/modules/ipo/draw.test.ts` runs the 2,000.
 */
const RUNS = Number(process.env['DRAW_RUNS'] ?? 200);

const SEED = 'a'.repeat(64);

function apps(units: number[], points: number[] = []): DrawApplication[] {
  return units.map((u, i) => ({ id: i + 1, pseudonym: `p${i + 1}`, units: u, points: points[i] ?? 0 }));
}

function record(seed: string, offering: number, policy: DrawPolicy, list: DrawApplication[]): DrawRecord {
  const r = draw({ seed, offering_units: offering, policy, applications: list });
  return {
    seed,
    seed_hash: seedHash(seed),
    offering_units: offering,
    policy,
    applications: list,
    list_hash: r.list_hash,
    allocations: r.allocations,
    order: r.order,
  };
}

describe('draw scenarios', () => {
  it('fills everyone when not oversubscribed, whatever the seed', () => {
    const r = draw({
      seed: SEED,
      offering_units: 10,
      policy: { kind: 'equal' },
      applications: apps([3, 2, 4]),
    });
    expect(r.allocations).toEqual([
      { id: 1, units: 3 },
      { id: 2, units: 2 },
      { id: 3, units: 4 },
    ]);
  });

  it('gives one unit per account first under the equal lottery', () => {
    const r = draw({
      seed: SEED,
      offering_units: 3,
      policy: { kind: 'equal' },
      applications: apps([5, 5, 5, 5, 5]),
    });
    expect(r.allocations).toHaveLength(3);
    expect(r.allocations.every((a) => a.units === 1)).toBe(true);
    // the winners are the first three of the drawn order
    expect(r.allocations.map((a) => a.id).sort()).toEqual(r.order.slice(0, 3).sort());
  });

  it('hands the rest round-robin in drawn order once every account has one unit', () => {
    const r = draw({ seed: SEED, offering_units: 5, policy: { kind: 'equal' }, applications: apps([3, 3]) });
    const first = r.order[0];
    expect(r.allocations.find((a) => a.id === first)?.units).toBe(3);
    expect(r.allocations.reduce((s, a) => s + a.units, 0)).toBe(5);
  });

  it('gives the points share to the most points among those the lottery missed', () => {
    // 10 units, 30% to points = 3 units; 7 by lottery among 100 single-unit applications
    const points = Array.from({ length: 100 }, (_, i) => (i < 5 ? 50 - i : 0));
    const list = apps(new Array<number>(100).fill(1), points);
    const r = draw({
      seed: SEED,
      offering_units: 10,
      policy: { kind: 'weighted', points_bps: 3000 },
      applications: list,
    });
    expect(r.allocations.reduce((s, a) => s + a.units, 0)).toBe(10);
    const won = new Set(r.allocations.map((a) => a.id));
    // the three highest point holders the lottery did not pick got a unit
    const byPoints = [1, 2, 3, 4, 5];
    let need = 3;
    for (const id of byPoints) {
      if (need === 0) break;
      expect(won.has(id)).toBe(true);
      need--;
    }
  });

  it('is the same draw for the same record, and another for another seed', () => {
    const list = apps(Array.from({ length: 50 }, (_, i) => 1 + (i % 3)));
    const a = draw({ seed: SEED, offering_units: 7, policy: { kind: 'equal' }, applications: list });
    const b = draw({
      seed: SEED,
      offering_units: 7,
      policy: { kind: 'equal' },
      applications: [...list].reverse(),
    });
    const c = draw({
      seed: 'b'.repeat(64),
      offering_units: 7,
      policy: { kind: 'equal' },
      applications: list,
    });
    expect(b).toEqual(a);
    expect(c.order).not.toEqual(a.order);
  });

  it('pins the published example of docs/DRAW.md', () => {
    const list = apps([1, 2, 1, 3]);
    expect(canonicalList(list)).toBe('1,p1,1,0\n2,p2,2,0\n3,p3,1,0\n4,p4,3,0\n');
    expect(seedHash('00'.repeat(32))).toBe(
      '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925',
    );
    const r = draw({
      seed: '00'.repeat(32),
      offering_units: 3,
      policy: { kind: 'equal' },
      applications: list,
    });
    expect(r.list_hash).toBe(listHash(list));
    expect({ order: r.order, allocations: r.allocations }).toMatchSnapshot();
  });

  it('passes a declined unit down the waiting list in drawn order', () => {
    expect(fallbackWinners([4, 2, 9, 7], new Set([4, 2]), 1)).toEqual([9]);
    expect(fallbackWinners([4, 2, 9, 7], new Set([4, 2, 9, 7]), 1)).toEqual([]);
  });

  it('refuses malformed input', () => {
    expect(() =>
      draw({ seed: 'xyz', offering_units: 1, policy: { kind: 'equal' }, applications: [] }),
    ).toThrow();
    expect(() =>
      draw({ seed: SEED, offering_units: 1, policy: { kind: 'equal' }, applications: apps([0]) }),
    ).toThrow();
    expect(() =>
      draw({
        seed: SEED,
        offering_units: 1,
        policy: { kind: 'equal' },
        applications: [...apps([1]), ...apps([1])],
      }),
    ).toThrow();
  });
});

const arbPolicy: fc.Arbitrary<DrawPolicy> = fc.oneof(
  fc.constant({ kind: 'equal' as const }),
  fc.integer({ min: 0, max: 10_000 }).map((points_bps) => ({ kind: 'weighted' as const, points_bps })),
);
const arbCase = fc.record({
  seed: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
  offering: fc.integer({ min: 0, max: 60 }),
  policy: arbPolicy,
  list: fc
    .array(fc.record({ units: fc.integer({ min: 1, max: 10 }), points: fc.integer({ min: 0, max: 5 }) }), {
      maxLength: 40,
    })
    .map((xs) => xs.map((x, i) => ({ id: i * 3 + 1, pseudonym: `u${i}`, units: x.units, points: x.points }))),
});

/**
 * docs/DRAW.md's "The draw", transcribed as literally as it reads (the tickets array built whole, the points
 * candidates as a sorted list of objects): the reference the shared, leaner `allocatePositions` must match.
 */
function drawAsWritten(seed: string, offering: number, policy: DrawPolicy, list: DrawApplication[]) {
  const A = [...list].sort((a, b) => a.id - b.id);
  const stream = new DrawStream(seed, listHash(A), policy, offering);
  const N = A.length;
  const D = A.reduce((s, a) => s + a.units, 0);
  const order = A.map((_, i) => i);
  for (let k = N - 1; k >= 1; k--) {
    const j = stream.below(k + 1);
    [order[k], order[j]] = [order[j] ?? 0, order[k] ?? 0];
  }
  const got = A.map(() => 0);
  let U = offering;
  if (D <= U) A.forEach((a, i) => (got[i] = a.units));
  else {
    if (policy.kind === 'weighted') {
      const P = Math.floor((offering * policy.points_bps) / 10000);
      let L = offering - P;
      const tickets = A.flatMap((a, i) => new Array<number>(a.units).fill(i));
      let remaining = D;
      while (L > 0 && remaining > 0) {
        const j = stream.below(remaining);
        const i = tickets[j] ?? 0;
        got[i] = (got[i] ?? 0) + 1;
        tickets[j] = tickets[remaining - 1] ?? 0;
        remaining -= 1;
        L -= 1;
        U -= 1;
      }
      const candidates = A.map((a, i) => ({ i, points: a.points, rank: order.indexOf(i) }))
        .filter((c) => got[c.i] === 0 && c.points > 0)
        .sort((x, y) => y.points - x.points || x.rank - y.rank);
      let pts = Math.min(P, U);
      for (const c of candidates) {
        if (pts === 0) break;
        got[c.i] = 1;
        pts -= 1;
        U -= 1;
      }
    }
    let gave = true;
    while (U > 0 && gave) {
      gave = false;
      for (const i of order) {
        if (U === 0) break;
        if ((got[i] ?? 0) < (A[i]?.units ?? 0)) {
          got[i] = (got[i] ?? 0) + 1;
          U -= 1;
          gave = true;
        }
      }
    }
  }
  return {
    allocations: A.flatMap((a, i) => ((got[i] ?? 0) > 0 ? [{ id: a.id, units: got[i] ?? 0 }] : [])),
    order: order.map((i) => A[i]?.id ?? 0),
  };
}

describe('draw properties', () => {
  it('draws exactly as docs/DRAW.md reads, transcribed literally', () => {
    fc.assert(
      fc.property(arbCase, ({ seed, offering, policy, list }) => {
        const r = draw({ seed, offering_units: offering, policy, applications: list });
        expect({ allocations: r.allocations, order: r.order }).toEqual(
          drawAsWritten(seed, offering, policy, list),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('never allocates more than the offering or more than applied, in whole units, all when oversubscribed', () => {
    fc.assert(
      fc.property(arbCase, ({ seed, offering, policy, list }) => {
        const r = draw({ seed, offering_units: offering, policy, applications: list });
        const total = r.allocations.reduce((s, a) => s + a.units, 0);
        const demand = list.reduce((s, a) => s + a.units, 0);
        expect(total).toBe(Math.min(offering, demand));
        for (const a of r.allocations) {
          expect(Number.isInteger(a.units) && a.units >= 1).toBe(true);
          expect(a.units).toBeLessThanOrEqual(list.find((x) => x.id === a.id)?.units ?? 0);
        }
        expect([...r.order].sort((x, y) => x - y)).toEqual(list.map((a) => a.id));
      }),
      { numRuns: RUNS },
    );
  });

  it('accepts every honest record and rejects every single-field mutation of seed, list or result', () => {
    fc.assert(
      fc.property(arbCase, fc.nat(), ({ seed, offering, policy, list }, pick) => {
        const honest = record(seed, offering, policy, list);
        expect(verifyDraw(honest)).toEqual([]);
        // the seed: another seed no longer matches the hash published at the window's opening
        const otherSeed = (seed[0] === '0' ? '1' : '0') + seed.slice(1);
        expect(verifyDraw({ ...honest, seed: otherSeed })).not.toEqual([]);
        // the list: one field of one application changed
        if (list.length > 0) {
          const i = pick % list.length;
          const field = (pick >> 4) % 3;
          const changed = list.map((a, k) =>
            k !== i
              ? a
              : field === 0
                ? { ...a, units: a.units + 1 }
                : field === 1
                  ? { ...a, points: a.points + 1 }
                  : { ...a, pseudonym: `${a.pseudonym}x` },
          );
          expect(verifyDraw({ ...honest, applications: changed })).toContain('list_hash');
        }
        // the result: one allocation moved, added or dropped
        if (honest.allocations.length > 0) {
          const i = pick % honest.allocations.length;
          const allocations = honest.allocations.map((a, k) => (k === i ? { ...a, units: a.units + 1 } : a));
          expect(verifyDraw({ ...honest, allocations })).toContain('allocations');
          expect(verifyDraw({ ...honest, allocations: honest.allocations.slice(1) })).toContain(
            'allocations',
          );
        }
        if (honest.order.length > 1) {
          const order = [...honest.order];
          order.push(order.shift() ?? 0);
          expect(verifyDraw({ ...honest, order })).toContain('order');
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('is recomputed the same in the browser (Web Crypto), which rejects the same mutations', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, fc.nat(), async ({ seed, offering, policy, list }, pick) => {
        const honest = record(seed, offering, policy, list);
        expect(await verifyDrawInBrowser(honest)).toEqual([]);
        const otherSeed = (seed[0] === '0' ? '1' : '0') + seed.slice(1);
        expect(await verifyDrawInBrowser({ ...honest, seed: otherSeed })).toEqual(
          verifyDraw({ ...honest, seed: otherSeed }),
        );
        if (honest.allocations.length > 0) {
          const i = pick % honest.allocations.length;
          const allocations = honest.allocations.map((a, k) => (k === i ? { ...a, units: a.units + 1 } : a));
          expect(await verifyDrawInBrowser({ ...honest, allocations })).toEqual(['allocations']);
        }
        if (list.length > 0) {
          const changed = list.map((a, k) => (k === pick % list.length ? { ...a, points: a.points + 1 } : a));
          expect(await verifyDrawInBrowser({ ...honest, applications: changed })).toContain('list_hash');
        }
      }),
      { numRuns: Math.min(RUNS, 100) },
    );
  });

  it('draws again with a longer keystream in the browser when the first runs out, and still agrees', async () => {
    const list = apps([5, 3, 8, 1, 2, 9], [1, 2, 3, 0, 0, 4]);
    for (const policy of [{ kind: 'equal' }, { kind: 'weighted', points_bps: 3000 }] as const) {
      const honest = record(SEED, 12, policy, list);
      // 4 words cannot shuffle six positions and draw twelve units: 4, 8, 16, then 32 words
      expect(await verifyDrawInBrowser(honest, globalThis.crypto.subtle, 4)).toEqual([]);
    }
  });
});
