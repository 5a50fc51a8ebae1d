import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { describeNeeding } from '../test/needs.js';
import { DeploymentClaim, DeploymentConflictError, deploymentId } from './deployment.js';

/** ADR 0052: one deployment (one database) per Redis prefix. */

describe('the deployment id', () => {
  it('is written by the first start on a database, kept by every later one, and differs between databases', async () => {
    const one = await createTestApp();
    const two = await createTestApp();
    try {
      const id = await deploymentId(one.database.db);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await deploymentId(one.database.db)).toBe(id);
      // two processes starting on one database at once: both read the one row
      const [a, b] = await Promise.all([deploymentId(two.database.db), deploymentId(two.database.db)]);
      expect(a).toBe(b);
      expect(a).not.toBe(id);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describeNeeding('redis', 'one deployment per Redis prefix', (redisUrl) => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await redis.quit();
  });
  const fresh = () => `kabuto-test-${randomBytes(4).toString('hex')}:`;

  it('a second database on the prefix does not start, and says which deployments clash', async () => {
    const prefix = fresh();
    const first = await createTestApp({ REDIS_URL: redisUrl, REDIS_PREFIX: prefix }, undefined, {
      produceTicks: false,
    });
    try {
      await first.app.ready();
      const ours = await deploymentId(first.database.db);
      expect(await redis.get(`${prefix}deployment`)).toBe(ours);
      const ttl = await redis.pttl(`${prefix}deployment`);
      expect(ttl).toBeGreaterThan(20_000);
      expect(ttl).toBeLessThanOrEqual(30_000);

      // another database (created without Redis, then built on the prefix as its own process would be)
      const other = await createTestApp();
      try {
        const second = await buildApp({
          config: { ...other.config, REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
          database: other.database,
          clock: other.clock,
          logger: false,
          produceTicks: false,
        });
        const refused = await second.ready().then(
          () => null,
          (error: unknown) => error,
        );
        await second.close().catch(() => undefined);
        expect(refused).toBeInstanceOf(DeploymentConflictError);
        const conflict = refused as DeploymentConflictError;
        expect(conflict.theirs).toBe(ours);
        expect(conflict.ours).toBe(await deploymentId(other.database.db));
        expect(conflict.message).toContain(`REDIS_PREFIX "${prefix}"`);
        expect(conflict.message).toMatch(/lapses in (2\d|30) s/);
        // the holder keeps its claim
        expect(await redis.get(`${prefix}deployment`)).toBe(ours);
      } finally {
        await other.close();
      }

      // the same database in another process (two processes, one deployment) starts
      const sibling = await buildApp({
        config: first.config,
        database: first.database,
        clock: first.clock,
        logger: false,
        produceTicks: false,
      });
      await sibling.ready();
      await sibling.close();
    } finally {
      await first.close();
    }
    // a graceful stop hands the key back: a database made anew on the prefix starts at once
    expect(await redis.exists(`${prefix}deployment`)).toBe(0);
    const after = await createTestApp({ REDIS_URL: redisUrl, REDIS_PREFIX: prefix }, undefined, {
      produceTicks: false,
    });
    try {
      await after.app.ready();
      expect(await redis.get(`${prefix}deployment`)).toBe(await deploymentId(after.database.db));
    } finally {
      await after.close();
    }
  });

  it('another prefix on the same Redis is another cluster: both deployments start', async () => {
    const one = await createTestApp({ REDIS_URL: redisUrl, REDIS_PREFIX: fresh() }, undefined, {
      produceTicks: false,
    });
    const two = await createTestApp({ REDIS_URL: redisUrl, REDIS_PREFIX: fresh() }, undefined, {
      produceTicks: false,
    });
    try {
      await one.app.ready();
      await two.app.ready();
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('a running process that finds its key taken by another deployment is told once, and stops renewing', async () => {
    const prefix = fresh();
    const conflicts: DeploymentConflictError[] = [];
    const claim = new DeploymentClaim(
      redis,
      prefix,
      'deployment-a',
      (error) => {
        conflicts.push(error);
      },
      2_000,
      50,
    );
    await claim.start();
    // renewed while it is ours
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await redis.get(`${prefix}deployment`)).toBe('deployment-a');
    expect(await redis.pttl(`${prefix}deployment`)).toBeGreaterThan(1_700);
    expect(conflicts).toEqual([]);

    // e.g. both started while Redis was unreachable, or this one's claim lapsed and another took it
    await redis.set(`${prefix}deployment`, 'deployment-b', 'PX', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]?.theirs).toBe('deployment-b');
    expect(conflicts[0]?.ours).toBe('deployment-a');
    // it neither renews nor releases the other's key
    await claim.stop();
    expect(await redis.get(`${prefix}deployment`)).toBe('deployment-b');
    await redis.del(`${prefix}deployment`);
  });

  it('a running app told of a conflict closes itself, unless its owner decides (main.ts exits)', async () => {
    const prefix = fresh();
    const t: TestApp = await createTestApp();
    const build = (onDeploymentConflict?: (error: DeploymentConflictError) => void) =>
      buildApp({
        config: { ...t.config, REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
        database: t.database,
        clock: t.clock,
        logger: false,
        produceTicks: false,
        deploymentClaim: { ttlMs: 2_000, everyMs: 50 },
        ...(onDeploymentConflict ? { onDeploymentConflict } : {}),
      });
    try {
      const app = await build();
      let closed = false;
      app.addHook('onClose', async () => {
        closed = true;
      });
      await app.ready();
      await redis.set(`${prefix}deployment`, 'deployment-d', 'PX', 60_000);
      await expect.poll(() => closed, { timeout: 5_000 }).toBe(true);
      await redis.del(`${prefix}deployment`);

      const told: DeploymentConflictError[] = [];
      const owned = await build((error) => told.push(error));
      await owned.ready();
      await redis.set(`${prefix}deployment`, 'deployment-e', 'PX', 60_000);
      await expect.poll(() => told.length, { timeout: 5_000 }).toBe(1);
      expect(told[0]?.theirs).toBe('deployment-e');
      await owned.close();
      await redis.del(`${prefix}deployment`);
    } finally {
      await t.close();
    }
  });
});
