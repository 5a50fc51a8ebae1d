/**
 * The capacity model behind docs/SCALING.md and `npm run bench:capacity`: measured per-unit costs (CPU time
 * per order, per read, per message written to a socket) and a deployment step (how many cores where) give,
 * for a target load, the share of each resource pool the load uses, the pool that saturates first, and the
 * share of the target at which it does. Pure arithmetic, tested in capacity-model.test.ts.
 *
 * The model is linear on purpose: every pool's work grows with the load, and a pool is full when its busy
 * cores reach `headroom` of its cores (queues grow without bound near 100%, so plans stop short of it).
 * What it leaves out is said in docs/SCALING.md (memory per socket, lock contention, the WAL's own ceiling).
 */

/** Per-unit costs, in core time. Each carries where it came from. */
export interface Costs {
  /** PostgreSQL CPU per accepted order (lock, key claim, ledger head, order row, postings, COMMIT). */
  orderDbCoreMs: number;
  /** Application-process CPU per accepted order (HTTP, validation, statements, the fill pushed). */
  orderAppCoreMs: number;
  /** Application CPU per ordinary signed-in read (getUserInfo: session, two statements, serialization). */
  readAppCoreMs: number;
  /** PostgreSQL CPU per such read. */
  readDbCoreMs: number;
  /** Application CPU per quote message written to one socket. */
  messageAppCoreUs: number;
  /**
   * Orders a second one write node (a PostgreSQL primary, or one Citus worker) commits at most whatever its
   * cores: its WAL is one sequence flushed in order, so commits do not grow with cores past a point.
   */
  ordersPerWriteNode: number;
  /** Where each figure came from (bench, date, load), printed with the table. */
  sources: Record<string, string>;
}

/** The load the deployment must carry, at 100% of the target. */
export interface Demand {
  accounts: number;
  /** Clients connected at the busiest moment (the open). */
  online: number;
  /** Orders a second at the peak. */
  ordersPerSecond: number;
  /** Symbols each connected client watches. */
  symbolsPerClient: number;
  /** Quote messages a watched symbol causes per second (after any conflation). */
  updatesPerSymbolPerSecond: number;
  /** Signed-in reads (balances, positions, lists) per connected client per second. */
  readsPerClientPerSecond: number;
}

/** One deployment: cores by role. A role with 0 cores is served by the pool named in the comment. */
export interface Step {
  name: string;
  /** Cores running application processes (one process a core: API, orders and sockets). */
  appCores: number;
  /** Cores of the database that takes the orders (the primary, or all Citus workers together). */
  writeDbCores: number;
  /** Write nodes: 1 for a single primary, the worker count on Citus (the ledger partitioned by customer). */
  writeNodes: number;
  /** This step's own commit ceiling per write node, when measured on its hardware (else the costs'). */
  ordersPerWriteNode?: number;
  /** Cores of read replicas; 0: the reads go to the write database. */
  readDbCores: number;
  /**
   * Cores of a separate fan-out tier (socket gateways fed by Redis Cluster or NATS); 0: the application
   * processes write the quotes to their own sockets.
   */
  fanoutCores: number;
  /** Whether everything shares the same cores (this machine: app, database and load on 2 cores). */
  shared?: boolean;
}

export type Pool = 'app' | 'write db' | 'commit rate' | 'read db' | 'fan-out' | 'machine';

export interface PoolUse {
  pool: Pool;
  cores: number;
  /** Busy cores at 100% of the target demand. */
  busyAtTarget: number;
  /** The share of the target demand at which the pool reaches the headroom (1 = exactly the target). */
  saturatesAt: number;
}

export interface StepResult {
  step: Step;
  pools: PoolUse[];
  /** The pool with the lowest `saturatesAt`. */
  first: PoolUse;
  /** What the step carries when the first pool saturates (or the target, if it never does). */
  carries: { accounts: number; online: number; ordersPerSecond: number };
  /** The most orders a second the step takes with nothing else to do (reads and quotes at zero). */
  ordersAlone: number;
  /** The most clients it keeps connected and quoted (symbols and update rate of the demand) with no orders or reads. */
  clientsAlone: number;
}

/** Busy cores of each kind of work at 100% of the demand. */
export function work(costs: Costs, demand: Demand) {
  const messagesPerSecond = demand.online * demand.symbolsPerClient * demand.updatesPerSymbolPerSecond;
  const readsPerSecond = demand.online * demand.readsPerClientPerSecond;
  return {
    messagesPerSecond,
    readsPerSecond,
    orderApp: (demand.ordersPerSecond * costs.orderAppCoreMs) / 1000,
    orderDb: (demand.ordersPerSecond * costs.orderDbCoreMs) / 1000,
    readApp: (readsPerSecond * costs.readAppCoreMs) / 1000,
    readDb: (readsPerSecond * costs.readDbCoreMs) / 1000,
    fanout: (messagesPerSecond * costs.messageAppCoreUs) / 1_000_000,
  };
}

/** The pools of one step under the demand, and the one that saturates first. */
export function evaluate(costs: Costs, demand: Demand, step: Step, headroom = 0.7): StepResult {
  const { pools: uses, first } = usage(costs, demand, step, headroom);
  const share = Math.min(1, first.saturatesAt);
  const none = { ...demand, accounts: 0, online: 0, ordersPerSecond: 0 };
  return {
    step,
    pools: uses,
    first,
    carries: {
      accounts: Math.floor(demand.accounts * share + 1e-6),
      online: Math.floor(demand.online * share + 1e-6),
      ordersPerSecond: Math.floor(demand.ordersPerSecond * share + 1e-6),
    },
    ordersAlone: Math.floor(usage(costs, { ...none, ordersPerSecond: 1 }, step, headroom).first.saturatesAt),
    clientsAlone: Math.floor(
      usage(costs, { ...none, online: 1, readsPerClientPerSecond: 0 }, step, headroom).first.saturatesAt,
    ),
  };
}

function usage(
  costs: Costs,
  demand: Demand,
  step: Step,
  headroom: number,
): { pools: PoolUse[]; first: PoolUse } {
  const w = work(costs, demand);
  const commitCeiling = step.ordersPerWriteNode ?? costs.ordersPerWriteNode;
  const pools: { pool: Pool; cores: number; busy: number }[] = [];
  if (step.shared) {
    pools.push({
      pool: 'machine',
      cores: step.appCores,
      busy: w.orderApp + w.orderDb + w.readApp + w.readDb + w.fanout,
    });
    pools.push({
      pool: 'commit rate',
      cores: step.writeNodes,
      busy: demand.ordersPerSecond / commitCeiling,
    });
  } else {
    const fanoutOnApp = step.fanoutCores === 0;
    const readsOnPrimary = step.readDbCores === 0;
    pools.push({
      pool: 'app',
      cores: step.appCores,
      busy: w.orderApp + w.readApp + (fanoutOnApp ? w.fanout : 0),
    });
    pools.push({
      pool: 'write db',
      cores: step.writeDbCores,
      busy: w.orderDb + (readsOnPrimary ? w.readDb : 0),
    });
    pools.push({ pool: 'commit rate', cores: step.writeNodes, busy: demand.ordersPerSecond / commitCeiling });
    if (!readsOnPrimary) pools.push({ pool: 'read db', cores: step.readDbCores, busy: w.readDb });
    if (!fanoutOnApp) pools.push({ pool: 'fan-out', cores: step.fanoutCores, busy: w.fanout });
  }
  const uses: PoolUse[] = pools.map(({ pool, cores, busy }) => ({
    pool,
    cores,
    busyAtTarget: busy,
    saturatesAt: busy === 0 ? Number.POSITIVE_INFINITY : (cores * headroom) / busy,
  }));
  const first = uses.reduce((a, b) => (b.saturatesAt < a.saturatesAt ? b : a));
  return { pools: uses, first };
}

/** The national-broker target of issue 21. */
export const TARGET: Demand = {
  accounts: 5_000_000,
  online: 1_000_000,
  ordersPerSecond: 20_000,
  symbolsPerClient: 50,
  // The simulator's normal beat moves ~30% of the universe a second (bench:ws); the open is busier, so
  // the plan takes one message per watched symbol per second: the gateways conflate to that at most.
  updatesPerSymbolPerSecond: 1,
  // One signed-in read every 20 s per connected client (the app refetches on focus and after each order).
  readsPerClientPerSecond: 0.05,
};

/** The path from this machine to the target (docs/SCALING.md explains each step). */
export const STEPS: Step[] = [
  {
    name: '0. this machine (2 cores: app, PostgreSQL, load)',
    appCores: 2,
    writeDbCores: 0,
    writeNodes: 1,
    // measured here: one process on PostgreSQL saturates at 440-540 accepted orders/s (issue 21)
    ordersPerWriteNode: 540,
    readDbCores: 0,
    fanoutCores: 0,
    shared: true,
  },
  {
    name: '1. one app box (8 cores) + PostgreSQL box (16)',
    appCores: 8,
    writeDbCores: 16,
    writeNodes: 1,
    readDbCores: 0,
    fanoutCores: 0,
  },
  {
    name: '2. 8 app boxes (64) behind HAProxy + Redis; primary (32) + 2 replicas (64)',
    appCores: 64,
    writeDbCores: 32,
    writeNodes: 1,
    readDbCores: 64,
    fanoutCores: 0,
  },
  {
    name: '3. + socket gateways on NATS (256); primary (64) + replicas (128)',
    appCores: 64,
    writeDbCores: 64,
    writeNodes: 1,
    readDbCores: 128,
    fanoutCores: 256,
  },
  {
    name: '4. ledger on Citus (16 workers × 32); 128 app; gateways (1,024); replicas (256)',
    appCores: 128,
    writeDbCores: 512,
    writeNodes: 16,
    readDbCores: 256,
    fanoutCores: 1024,
  },
];

/** Costs with overrides from a bench's JSON (bench/results/envelope.json), if one was written. */
export function costsFromEnvelope(
  base: Costs,
  envelope:
    | { measuredAt: string; database: string; getUserInfo: { kabuto: { cpuUsPerRequest?: number } } }
    | undefined,
): Costs {
  const cpu = envelope?.getUserInfo.kabuto.cpuUsPerRequest;
  if (!envelope || envelope.database !== 'postgres' || cpu === undefined || !(cpu > 0)) return base;
  // The server process's own CPU time per request (from /proc), which a busy machine does not inflate.
  const readAppCoreMs = cpu / 1000;
  return {
    ...base,
    readAppCoreMs,
    sources: {
      ...base.sources,
      readAppCoreMs: `bench:envelope on PostgreSQL, ${envelope.measuredAt} (bench/results/envelope.json): the server's CPU time per request, ${String(cpu)} µs`,
    },
  };
}
