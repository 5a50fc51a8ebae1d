import { Socket } from 'node:net';

/**
 * How many times this process writes to PostgreSQL's sockets (TEST_DATABASE_URL's port) while `work` runs:
 * with node-postgres's writes, one per round trip of a transaction (src/db/pipelined.ts).
 */
export async function postgresWritesDuring(work: () => Promise<unknown>): Promise<number> {
  const port = Number(new URL(process.env['TEST_DATABASE_URL'] ?? 'postgres://localhost').port || 5432);
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  const original = { _write: proto._write, _writev: proto._writev };
  let writes = 0;
  for (const name of ['_write', '_writev'] as const) {
    proto[name] = function (this: Socket, ...args: unknown[]) {
      if (this.remotePort === port) writes += 1;
      return original[name].apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(proto, original);
  }
  return writes;
}
