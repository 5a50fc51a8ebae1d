import { sql } from 'drizzle-orm';
import type { Executor } from '../db/types.js';
import { run, statement } from '../db/statement.js';

/**
 * A scratch table for the tests of src/db/pipelined.ts (db/pipelined.test.ts on both databases,
 * db/pipelined.postgres.test.ts on PostgreSQL only).
 */
export async function createProbeTable(db: Executor): Promise<void> {
  await db.execute(sql`create table pipelined_probe (id int primary key)`);
}

export const insertProbe = statement<{ id: number }, { id: number }>(
  'test_pipelined_insert',
  (p) => `insert into pipelined_probe (id) values (${p('id')}::int) returning id`,
);

const allProbes = statement<Record<string, never>, { id: number }>(
  'test_pipelined_all',
  () => 'select id from pipelined_probe order by id',
);

/** The ids in the table, in order. */
export async function probeIds(db: Executor): Promise<number[]> {
  return (await run(db, allProbes, {})).map((r) => r.id);
}

export async function clearProbes(db: Executor): Promise<void> {
  await db.execute(sql`delete from pipelined_probe`);
}
