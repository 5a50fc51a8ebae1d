import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createTestApp } from '../test/harness.js';
import { LazyRequestLogger } from './request-logger.js';

/** A request's logger is made when the request first writes (ADR 0047), with the bindings it always had. */
describe('the request logger', () => {
  it('makes no pino child for a request that writes nothing, and one for a request that writes', () => {
    const made: unknown[] = [];
    const written: unknown[][] = [];
    const child = {
      level: 'info',
      info: (...args: unknown[]) => written.push(args),
    } as unknown as FastifyBaseLogger;
    const parent = {
      level: 'info',
      child: (bindings: unknown) => {
        made.push(bindings);
        return child;
      },
    } as unknown as FastifyBaseLogger;
    const quiet = new LazyRequestLogger(parent, { reqId: 'req-1' }, {});
    expect(quiet.level).toBe('info');
    expect(made).toEqual([]);
    const loud = new LazyRequestLogger(parent, { reqId: 'req-2' }, {});
    loud.info({ a: 1 }, 'one');
    loud.info('two');
    expect(made).toEqual([{ reqId: 'req-2' }]);
    expect(written).toEqual([[{ a: 1 }, 'one'], ['two']]);
  });

  it('writes a request’s lines with its request id, as Fastify’s own child did', async () => {
    const lines: Record<string, unknown>[] = [];
    const t = await createTestApp(
      {},
      (app) => {
        app.get('/api/test-log', async (request) => {
          request.log.warn({ probe: true }, 'probe line');
          return { ok: true };
        });
      },
      { logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) } },
    );
    try {
      await t.app.inject({ url: '/api/test-log' });
      const probe = lines.find((l) => l['msg'] === 'probe line');
      expect(probe).toMatchObject({
        level: 40,
        probe: true,
        reqId: expect.stringMatching(/^req-/) as string,
      });
    } finally {
      await t.close();
    }
  });
});
