import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePgliteTemplate, openDatabase } from './client.js';
import { makeTemplate, migrationsFolder, migrationsHash, restoreTemplate } from './template.js';
import type { Database } from './types.js';

/** Everything the migrations make, as text to compare: tables and columns, constraints, indexes, functions, triggers, the journal. */
async function schemaOf(database: Database): Promise<Record<string, unknown[]>> {
  const rows = async (query: SQL) => {
    const result = await database.db.execute(query);
    return (result as { rows: Record<string, unknown>[] }).rows;
  };
  const user = sql`not in ('pg_catalog', 'information_schema', 'pg_toast')`;
  return {
    relations: await rows(sql`
      select n.nspname, c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname ${user} order by 1, 2, 3`),
    columns: await rows(sql`
      select table_schema, table_name, ordinal_position, column_name, data_type, is_nullable, column_default
      from information_schema.columns where table_schema ${user} order by 1, 2, 3`),
    constraints: await rows(sql`
      select n.nspname, t.relname, c.conname, pg_get_constraintdef(c.oid) as def
      from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
      where n.nspname ${user} order by 1, 2, 3`),
    indexes: await rows(sql`select schemaname, indexname, indexdef from pg_indexes
      where schemaname ${user} order by 1, 2`),
    functions: await rows(sql`
      select n.nspname, p.proname, pg_get_functiondef(p.oid) as def from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace where n.nspname ${user} order by 1, 2, 3`),
    triggers: await rows(sql`select tgname, pg_get_triggerdef(oid) as def from pg_trigger
      where not tgisinternal order by 1, 2`),
    types: await rows(sql`
      select n.nspname, t.typname, t.typtype from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname ${user} and t.typtype in ('e', 'd', 'c') order by 1, 2`),
    extensions: await rows(sql`select extname, extversion from pg_extension order by 1`),
    journal: await rows(sql`select hash, created_at from drizzle.__drizzle_migrations order by id`),
  };
}

describe('the build template of a migrated PGlite data folder (ADR 0046)', () => {
  let scratch: string;
  let templates: string;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'kabuto-template-test-'));
    templates = join(scratch, 'templates');
    const { made } = await makePgliteTemplate(templates);
    expect(made).toBe(true);
  }, 120_000);
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a new data folder starts from the template, with the schema of a fresh initdb migrated, and migrating it again changes nothing', async () => {
    const fromTemplate = await openDatabase({ dataDir: join(scratch, 'a', 'pglite'), templates });
    const fresh = await openDatabase({ dataDir: join(scratch, 'b', 'pglite') });
    try {
      expect(fromTemplate.origin).toBe('template');
      expect(fresh.origin).toBe('initdb');
      await fromTemplate.migrate();
      await fresh.migrate();
      const expected = await schemaOf(fresh);
      expect(expected['journal']).toHaveLength(
        readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length,
      );
      expect(await schemaOf(fromTemplate)).toEqual(expected);
    } finally {
      await fromTemplate.close();
      await fresh.close();
    }
    // copied aside and renamed into place: nothing half-made is left beside the data folder
    expect(readdirSync(join(scratch, 'a'))).toEqual(['pglite']);
  }, 120_000);

  it('falls back to initdb when the only template was built by other migrations or another PGlite, and reopens an existing folder as it is', async () => {
    const stale = join(scratch, 'stale');
    cpSync(join(templates, migrationsHash()), join(stale, '0123456789abcdef'), { recursive: true });
    const dataDir = join(scratch, 'c', 'pglite');
    const database = await openDatabase({ dataDir, templates: stale });
    try {
      expect(database.origin).toBe('initdb');
      await database.migrate();
      const rows = await database.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect((rows as { rows: { n: number }[] }).rows[0]).toEqual({
        n: readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length,
      });
    } finally {
      await database.close();
    }
    const again = await openDatabase({ dataDir, templates });
    try {
      expect(again.origin).toBe('existing');
    } finally {
      await again.close();
    }
  }, 120_000);
});

describe('choosing the template', () => {
  it('is named by the hash of the migrations and of PGlite: a changed or added migration changes it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'kabuto-template-hash-'));
    try {
      cpSync(migrationsFolder, folder, { recursive: true });
      const before = migrationsHash(folder);
      expect(before).toBe(migrationsHash());
      writeFileSync(join(folder, '9999_more.sql'), 'select 1;');
      expect(migrationsHash(folder)).not.toBe(before);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('copies only into a folder with no database and no other files; a missing template means initdb', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'kabuto-template-choice-'));
    try {
      const templates = join(scratch, 'templates');
      const template = join(templates, 'abc');
      mkdirSync(join(template, 'base'), { recursive: true });
      writeFileSync(join(template, 'PG_VERSION'), '17\n');
      writeFileSync(join(template, 'base', 'file'), 'data');

      expect(restoreTemplate(join(scratch, 'new', 'pglite'), templates, 'other')).toBe('initdb');
      expect(existsSync(join(scratch, 'new', 'pglite'))).toBe(false);

      expect(restoreTemplate(join(scratch, 'new', 'pglite'), templates, 'abc')).toBe('template');
      expect(readdirSync(join(scratch, 'new', 'pglite')).sort()).toEqual(['PG_VERSION', 'base']);
      expect(restoreTemplate(join(scratch, 'new', 'pglite'), templates, 'abc')).toBe('existing');

      mkdirSync(join(scratch, 'empty'));
      expect(restoreTemplate(join(scratch, 'empty'), templates, 'abc')).toBe('template');

      mkdirSync(join(scratch, 'odd'));
      writeFileSync(join(scratch, 'odd', 'notes.txt'), 'mine');
      expect(restoreTemplate(join(scratch, 'odd'), templates, 'abc')).toBe('initdb');
      expect(readdirSync(join(scratch, 'odd'))).toEqual(['notes.txt']);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('makes a template once, and removes the templates of other hashes', async () => {
    const templates = mkdtempSync(join(tmpdir(), 'kabuto-template-make-'));
    try {
      mkdirSync(join(templates, 'old'));
      let made = 0;
      const migrate = (dataDir: string) => {
        made++;
        mkdirSync(dataDir, { recursive: true });
        writeFileSync(join(dataDir, 'PG_VERSION'), '17\n');
        return Promise.resolve();
      };
      expect(await makeTemplate(migrate, templates, 'new')).toEqual({
        path: join(templates, 'new'),
        made: true,
      });
      expect(await makeTemplate(migrate, templates, 'new')).toEqual({
        path: join(templates, 'new'),
        made: false,
      });
      expect(made).toBe(1);
      expect(readdirSync(templates)).toEqual(['new']);
    } finally {
      rmSync(templates, { recursive: true, force: true });
    }
  });
});
