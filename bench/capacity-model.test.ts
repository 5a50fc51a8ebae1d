import { describe, expect, it } from 'vitest';
import {
  STEPS,
  TARGET,
  costsFromEnvelope,
  evaluate,
  work,
  type Costs,
  type Demand,
} from './capacity-model.js';

const costs: Costs = {
  orderAppCoreMs: 0.5,
  orderDbCoreMs: 1,
  readAppCoreMs: 2,
  readDbCoreMs: 0.25,
  messageAppCoreUs: 10,
  ordersPerWriteNode: 4_000,
  sources: {},
};
const demand: Demand = {
  accounts: 1_000_000,
  online: 100_000,
  ordersPerSecond: 2_000,
  symbolsPerClient: 10,
  updatesPerSymbolPerSecond: 1,
  readsPerClientPerSecond: 0.1,
};

describe('the capacity model', () => {
  it('turns the demand into busy cores per kind of work', () => {
    const w = work(costs, demand);
    expect(w.messagesPerSecond).toBe(1_000_000);
    expect(w.readsPerSecond).toBe(10_000);
    expect(w.orderApp).toBe(1); // 2,000/s × 0.5 ms
    expect(w.orderDb).toBe(2); // 2,000/s × 1 ms
    expect(w.readApp).toBe(20); // 10,000/s × 2 ms
    expect(w.readDb).toBe(2.5); // 10,000/s × 0.25 ms
    expect(w.fanout).toBe(10); // 1,000,000/s × 10 µs
  });

  it('puts reads on the primary and quotes on the app processes when the step has no replicas or gateways', () => {
    const r = evaluate(
      costs,
      demand,
      { name: 'x', appCores: 31, writeDbCores: 9, writeNodes: 1, readDbCores: 0, fanoutCores: 0 },
      0.7,
    );
    const app = r.pools.find((p) => p.pool === 'app');
    const db = r.pools.find((p) => p.pool === 'write db');
    expect(app?.busyAtTarget).toBe(31); // 1 + 20 + 10
    expect(db?.busyAtTarget).toBe(4.5); // 2 + 2.5
    expect(app?.saturatesAt).toBeCloseTo(0.7); // 31 × 0.7 / 31
    expect(db?.saturatesAt).toBeCloseTo(1.4); // 9 × 0.7 / 4.5
    expect(r.first.pool).toBe('app');
    expect(r.carries).toEqual({ accounts: 700_000, online: 70_000, ordersPerSecond: 1_400 });
  });

  it('moves reads to replicas and quotes to gateways when the step has them, and names the tightest pool', () => {
    const r = evaluate(
      costs,
      demand,
      { name: 'y', appCores: 42, writeDbCores: 2, writeNodes: 1, readDbCores: 10, fanoutCores: 20 },
      0.5,
    );
    expect(r.pools.map((p) => [p.pool, p.busyAtTarget])).toEqual([
      ['app', 21],
      ['write db', 2],
      ['commit rate', 0.5], // 2,000 orders/s of 4,000 a node
      ['read db', 2.5],
      ['fan-out', 10],
    ]);
    // write db: 2 × 0.5 / 2 = 0.5 is the lowest (app 1, commit rate 1, read db 2, fan-out 1)
    expect(r.first.pool).toBe('write db');
    expect(r.first.saturatesAt).toBeCloseTo(0.5);
    expect(r.carries.ordersPerSecond).toBe(1_000);
  });

  it('caps what a step carries at the target when nothing saturates', () => {
    const r = evaluate(costs, demand, {
      name: 'z',
      appCores: 1000,
      writeDbCores: 1000,
      writeNodes: 1,
      readDbCores: 0,
      fanoutCores: 0,
    });
    expect(r.first.saturatesAt).toBeGreaterThan(1);
    expect(r.carries).toEqual({ accounts: 1_000_000, online: 100_000, ordersPerSecond: 2_000 });
  });

  it("caps orders at the write nodes' commit rate whatever their cores, and a step may set its own", () => {
    const big = {
      name: 'c',
      appCores: 1000,
      writeDbCores: 1000,
      writeNodes: 1,
      readDbCores: 0,
      fanoutCores: 0,
    };
    const one = evaluate(costs, demand, big, 1);
    expect(one.ordersAlone).toBe(4_000);
    expect(evaluate(costs, demand, { ...big, writeNodes: 3 }, 1).ordersAlone).toBe(12_000);
    expect(evaluate(costs, demand, { ...big, ordersPerWriteNode: 500 }, 0.5).ordersAlone).toBe(250);
  });

  it('gives the clients a step keeps quoted with nothing else to do', () => {
    // 10 symbols × 1 update/s × 10 µs = 0.1 ms of a core a client: 20 cores × 0.5 / 0.0001
    const r = evaluate(
      costs,
      demand,
      { name: 'q', appCores: 20, writeDbCores: 1, writeNodes: 1, readDbCores: 0, fanoutCores: 0 },
      0.5,
    );
    expect(r.clientsAlone).toBe(100_000);
  });

  it('counts every kind of work against the one pool of a shared machine', () => {
    const r = evaluate(
      costs,
      demand,
      {
        name: 'm',
        appCores: 2,
        writeDbCores: 0,
        writeNodes: 1,
        readDbCores: 0,
        fanoutCores: 0,
        shared: true,
      },
      1,
    );
    expect(r.pools.map((p) => p.pool)).toEqual(['machine', 'commit rate']);
    expect(r.first.pool).toBe('machine');
    expect(r.first.busyAtTarget).toBe(35.5); // 1 + 2 + 20 + 2.5 + 10
    expect(r.first.saturatesAt).toBeCloseTo(2 / 35.5);
  });

  it('carries more at every step of the path than at the one before, and the target at the last', () => {
    const shares = STEPS.map((step) => evaluate(costs, TARGET, step).first.saturatesAt);
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThan(shares[i - 1] ?? 0);
  });

  it("takes the read cost from the bench's JSON only when it measured PostgreSQL and the server's CPU", () => {
    const measured = {
      measuredAt: 't',
      database: 'postgres',
      getUserInfo: { kabuto: { cpuUsPerRequest: 800 } },
    };
    expect(costsFromEnvelope(costs, measured).readAppCoreMs).toBeCloseTo(0.8);
    expect(costsFromEnvelope(costs, { ...measured, database: 'pglite' })).toBe(costs);
    expect(
      costsFromEnvelope(costs, { measuredAt: 't', database: 'postgres', getUserInfo: { kabuto: {} } }),
    ).toBe(costs);
    expect(costsFromEnvelope(costs, undefined)).toBe(costs);
  });
});
