import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { jobRuns, settings } from '../../db/schema.js';
import { OffsetClock } from '../../lib/clock.js';
import { body, createTestApp, type TestApp } from '../../test/harness.js';
import { hasRun, runOnce, runsOf } from './run-once.js';
import { runScheduledJobs, type ScheduledJob } from './scheduled.js';

const AT = new Date('2026-11-24T07:00:00Z');

describe('runOnce: a scheduled job runs exactly once per key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('runs the work once however often and however concurrently it is asked', async () => {
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        runOnce(t.database.db, 'test.count', '2026-11-24', AT, async () => {
          runs += 1;
          return { runs };
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    expect(await hasRun(t.database.db, 'test.count', '2026-11-24')).toBe(true);
    expect(await hasRun(t.database.db, 'test.count', '2026-11-25')).toBe(false);
    const [run] = await runsOf(t.database.db, 'test.count');
    expect(run?.summary).toEqual({ runs: 1 });
  });

  it('a run that fails leaves neither its row nor its writes, and the next pass runs it whole', async () => {
    const key = 'settings.failing';
    const attempt = (fail: boolean) =>
      runOnce(t.database.db, 'test.write', key, AT, async (tx) => {
        await tx.insert(settings).values({ key, value: '{"n":1}' });
        if (fail) throw new Error('killed mid-run');
        return { wrote: 1 };
      });
    await expect(attempt(true)).rejects.toThrow('killed mid-run');
    expect(await hasRun(t.database.db, 'test.write', key)).toBe(false);
    const left = await t.database.db.select({ n: count() }).from(settings).where(eq(settings.key, key));
    expect(left[0]?.n).toBe(0);
    expect(await attempt(false)).toEqual({ ran: true, summary: { wrote: 1 } });
    expect(await attempt(false)).toEqual({ ran: false });
    const rows = await t.database.db
      .select({ n: count() })
      .from(jobRuns)
      .where(sql`${jobRuns.runKey} = ${key}`);
    expect(rows[0]?.n).toBe(1);
  });

  it('hasRun remembers a yes for its database and asks again after a no', async () => {
    // the database, counting the statements it is asked to build
    let selects = 0;
    const db = t.database.db;
    const counted = new Proxy(db, {
      get(target, prop) {
        if (prop === 'select') selects += 1;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect(await hasRun(counted, 'test.seen', 'k1')).toBe(false);
    expect(await hasRun(counted, 'test.seen', 'k1')).toBe(false);
    expect(selects).toBe(2);
    await runOnce(db, 'test.seen', 'k1', AT, async () => ({}));
    expect(await hasRun(counted, 'test.seen', 'k1')).toBe(true);
    expect(selects).toBe(3);
    expect(await hasRun(counted, 'test.seen', 'k1')).toBe(true);
    expect(await hasRun(counted, 'test.seen', 'k1')).toBe(true);
    expect(selects).toBe(3);
    // another key, and the same key on another database, are asked
    expect(await hasRun(counted, 'test.seen', 'k2')).toBe(false);
    expect(selects).toBe(4);
    const other = await createTestApp();
    try {
      expect(await hasRun(other.database.db, 'test.seen', 'k1')).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('a failing scheduled job is logged and the others still run', async () => {
    const ran: string[] = [];
    const jobs: ScheduledJob[] = [
      {
        name: 'broken',
        run: async () => {
          throw new Error('broken job');
        },
      },
      {
        name: 'fine',
        run: async () => {
          ran.push('fine');
          return [];
        },
      },
    ];
    const deps = { clock: t.clock, market: t.app.ctx.market, fees: t.app.ctx.fees, locale: 'ja' };
    expect(await runScheduledJobs(t.app, deps, jobs)).toEqual([]);
    expect(ran).toEqual(['fine']);
  });
});

describe('POST /api/clock/advance', () => {
  it('does not exist unless CLOCK_CONTROL is set', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/clock/advance',
        payload: { ms: 1000 },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('moves the clock forward, runs a pass, and answers the new time', async () => {
    const t = await createTestApp({ CLOCK_CONTROL: 'true' });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/clock/advance',
        payload: { ms: 3_600_000 },
      });
      expect(response.statusCode).toBe(200);
      expect(body<{ now: string }>(response).data.now).toBe('2026-11-24T02:00:00.000Z');
      expect(t.clock.now().toISOString()).toBe('2026-11-24T02:00:00.000Z');
      const back = await t.app.inject({ method: 'POST', url: '/api/clock/advance', payload: { ms: -1 } });
      expect(back.statusCode).toBe(400);
      expect(body(back).code).toBe(400);
    } finally {
      await t.close();
    }
  });

  it('an offset clock moves forward only', async () => {
    const clock = new OffsetClock();
    expect(() => {
      clock.advance(-1);
    }).toThrow(RangeError);
    const before = clock.now().getTime();
    clock.advance(86_400_000);
    expect(clock.now().getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    expect(clock.offset).toBe(86_400_000);
  });
});
