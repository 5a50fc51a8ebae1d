import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonStreamError } from '../../lib/json-stream.js';
import {
  draw,
  seedHash,
  verifyColumns,
  verifyDraw,
  type DrawApplication,
  type DrawPolicy,
  type DrawRecord,
} from './draw.js';
import { readDrawRecord } from './draw-record.js';

/**
 * `npm run verify-draw` reads the record as a stream into columns (draw-record.ts) and verifies the columns
 * (`verifyColumns`): it must answer what `verifyDraw` answers for the same record, honest or changed, however
 * the bytes arrive. DRAW_RUNS as in draw.test.ts.
 */
const RUNS = Number(process.env['DRAW_RUNS'] ?? 200);

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

async function* pieces(text: string, cuts: number[]): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}

/** The record as the server publishes it (in its envelope, with the fields the verifier does not read). */
function published(r: DrawRecord): string {
  return JSON.stringify({
    code: 1,
    msg: 'ok',
    data: { offering_id: 7, ...r, problems: [] },
  });
}

async function verifyStreamed(text: string, cuts: number[] = []) {
  const { record: read } = await readDrawRecord(pieces(text, cuts));
  if (!read) throw new Error('no record');
  return verifyColumns(read);
}

const arbPolicy: fc.Arbitrary<DrawPolicy> = fc.oneof(
  fc.constant({ kind: 'equal' as const }),
  fc.integer({ min: 0, max: 10_000 }).map((points_bps) => ({ kind: 'weighted' as const, points_bps })),
);
const arbCase = fc.record({
  seed: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
  offering: fc.integer({ min: 0, max: 60 }),
  policy: arbPolicy,
  list: fc
    .array(
      fc.record({
        units: fc.integer({ min: 1, max: 10 }),
        points: fc.integer({ min: 0, max: 5 }),
        // hex as the server writes them, and any text: the list is hashed as UTF-8 either way
        pseudonym: fc.oneof(fc.stringMatching(/^[0-9a-f]{16}$/), fc.string({ unit: 'binary', maxLength: 6 })),
      }),
      { maxLength: 40 },
    )
    .map((xs) => xs.map((x, i) => ({ id: i * 3 + 1, ...x }))),
  enveloped: fc.boolean(),
  shuffled: fc.boolean(),
  cuts: fc.array(fc.nat(), { maxLength: 8 }),
});

describe('the streamed verification', () => {
  it('accepts every honest record and rejects every single-field mutation, as verifyDraw does', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbCase,
        fc.nat(),
        async ({ seed, offering, policy, list, enveloped, shuffled, cuts }, pick) => {
          const honest = record(seed, offering, policy, list);
          // a record whose list is not in canonical order is verified in canonical order
          const applications = shuffled ? [...list].reverse() : list;
          const text = (r: DrawRecord) => (enveloped ? published(r) : JSON.stringify(r));
          const same = async (r: DrawRecord) => {
            const expected = verifyDraw(r);
            expect(await verifyStreamed(text(r), cuts)).toEqual(expected);
            return expected;
          };
          expect(await same({ ...honest, applications })).toEqual([]);
          const otherSeed = (seed[0] === '0' ? '1' : '0') + seed.slice(1);
          expect(await same({ ...honest, seed: otherSeed })).not.toEqual([]);
          if (list.length > 0) {
            const i = pick % list.length;
            const field = (pick >> 4) % 4;
            const changed = applications.map((a, k) =>
              k !== i
                ? a
                : field === 0
                  ? { ...a, units: a.units + 1 }
                  : field === 1
                    ? { ...a, points: a.points + 1 }
                    : field === 2
                      ? { ...a, pseudonym: `${a.pseudonym}x` }
                      : { ...a, id: a.id + 1 },
            );
            expect(await same({ ...honest, applications: changed })).toContain('list_hash');
          }
          if (honest.allocations.length > 0) {
            const i = pick % honest.allocations.length;
            const allocations = honest.allocations.map((a, k) =>
              k === i ? { ...a, units: a.units + 1 } : a,
            );
            expect(await same({ ...honest, allocations })).toContain('allocations');
            expect(await same({ ...honest, allocations: honest.allocations.slice(1) })).toContain(
              'allocations',
            );
          }
          if (honest.order.length > 1) {
            const order = [...honest.order];
            order.push(order.shift() ?? 0);
            expect(await same({ ...honest, order })).toContain('order');
            expect(await same({ ...honest, order: honest.order.slice(1) })).toContain('order');
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('calls a record malformed when a field cannot be drawn, and a list of the wrong type changed', async () => {
    const honest = record('a'.repeat(64), 3, { kind: 'equal' }, [
      { id: 1, pseudonym: 'p1', units: 2, points: 0 },
      { id: 2, pseudonym: 'p2', units: 2, points: 0 },
    ]);
    const text = (changes: Record<string, unknown>) => JSON.stringify({ ...honest, ...changes });
    const first = honest.applications[0];
    const malformed: Array<Record<string, unknown>> = [
      { seed: 'ab' },
      { offering_units: -1 },
      { offering_units: 1.5 },
      { policy: { kind: 'weighted', points_bps: 10_001 } },
      { policy: { kind: 'lottery' } },
      { applications: [{ ...first, units: 0 }] },
      { applications: [{ ...first, units: '2' }] },
      { applications: [{ ...first, points: -1 }] },
      { applications: [{ ...first, id: 0 }] },
      { applications: [{ ...first, pseudonym: 12 }] },
      { applications: [first, first] },
      { applications: [null] },
    ];
    for (const changes of malformed) {
      expect(await verifyStreamed(text(changes)), JSON.stringify(changes)).toEqual(['malformed']);
    }
    expect(await verifyStreamed(text({ allocations: [{ id: '1', units: 1 }] }))).toEqual(['allocations']);
    expect(await verifyStreamed(text({ allocations: [1, 2] }))).toEqual(['allocations']);
    expect(await verifyStreamed(text({ order: ['1', '2'] }))).toEqual(['order']);
    // the last of a repeated key counts, as with JSON.parse
    const twice = JSON.stringify(honest).replace('"order":', '"order":[9,9],"order":');
    expect(await verifyStreamed(twice)).toEqual([]);
  });

  it('tells a document that holds no record, and bytes that are not JSON', async () => {
    const none = await readDrawRecord(pieces('{"code":1205,"msg":"not found","data":null}', []));
    expect(none).toMatchObject({ code: 1205, msg: 'not found', record: null });
    expect((await readDrawRecord(pieces('[1,2]', []))).record).toBeNull();
    await expect(readDrawRecord(pieces('{"applications":[1,', [5]))).rejects.toThrow(JsonStreamError);
  });
});

describe('the verify-draw command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kabuto-draw-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies a saved record, and names what a changed one gets wrong', () => {
    const list = Array.from({ length: 50 }, (_, i) => ({
      id: i + 1,
      pseudonym: `p${i}`,
      units: 1 + (i % 4),
      points: i % 3,
    }));
    const honest = record('c'.repeat(64), 20, { kind: 'weighted', points_bps: 3000 }, list);
    const script = fileURLToPath(new URL('../../scripts/verify-draw.ts', import.meta.url));
    const run = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      return execFileSync(
        process.execPath,
        ['--conditions=@kabuto/source', '--import', 'tsx', script, file],
        {
          encoding: 'utf8',
          stdio: 'pipe',
        },
      );
    };
    expect(run('good.json', published(honest))).toContain(
      `VERIFIED. 50 applications, ${honest.allocations.length} winners, 20 of 20 units`,
    );
    const order = [...honest.order].reverse();
    expect(() => run('order.json', published({ ...honest, order }))).toThrow(/DOES NOT VERIFY: order/);
    expect(() => run('cut.json', published(honest).slice(0, 100))).toThrow(/not a draw record \(not JSON/);
    expect(() => run('error.json', '{"code":1205,"msg":"no such offering","data":null}')).toThrow(
      /the server answered 1205 no such offering/,
    );
  });
});
