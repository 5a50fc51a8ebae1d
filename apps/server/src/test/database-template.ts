import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../db/client.js';
import { migrationsHash } from '../db/template.js';

/**
 * The test harness's databases start migrated, from a template, instead of each running every migration.
 *
 * PGlite: each database starts from one migrated image instead of each running initdb and every
 * migration (several seconds a file on a busy machine, most of the PGlite pass's time). The image is made
 * once per set of migrations, by the first test process that needs it, and kept in the temporary folder
 * under a name that hashes the migrations' files and PGlite's version: a changed or new migration, or
 * another PGlite, makes a new image. A database
 * made from it is the same as one made by migrating an empty one (the migrations are the same files); each
 * test still gets its own database, in its own memory.
 */
let image: Promise<Blob> | undefined;
let template: Promise<string> | undefined;

export function migratedTemplate(): Promise<Blob> {
  image ??= load();
  return image;
}

async function load(): Promise<Blob> {
  const path = join(tmpdir(), `kabuto-pglite-template-${migrationsHash()}.tar`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const database = await openDatabase({});
  try {
    await database.migrate();
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dumped = await client.dumpDataDir('none');
    // written aside and renamed: a process reading the image never sees half of it
    const partial = `${path}.${String(process.pid)}.partial`;
    writeFileSync(partial, Buffer.from(await dumped.arrayBuffer()));
    renameSync(partial, path);
    return dumped;
  } finally {
    await database.close();
  }
}

/** Any 64-bit number: the test processes that reach the PostgreSQL template at once make it one at a time. */
const TEMPLATE_LOCK = 7_245_102;

/**
 * PostgreSQL: the name of a migrated template database on the server of `serverUrl`, made once per set of
 * migrations (named by their hash, as the PGlite image is) by the first test process that needs it. A test's
 * database is then `create database … template …`, a copy of the template's files. Nothing connects to the
 * template once it is made (PostgreSQL copies only a template nobody is connected to).
 */
export function postgresTemplate(serverUrl: string): Promise<string> {
  template ??= makePostgresTemplate(serverUrl);
  return template;
}

async function makePostgresTemplate(serverUrl: string): Promise<string> {
  const name = `kabuto_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      // made under another name and renamed when whole: a process killed mid-way leaves no half template
      const making = `${name}_${String(process.pid)}`;
      await admin.query(`drop database if exists ${making}`);
      await admin.query(`create database ${making}`);
      const url = new URL(serverUrl);
      url.pathname = `/${making}`;
      const database = await openDatabase({ url: url.toString(), poolSize: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await admin.query(`alter database ${making} rename to ${name}`);
    }
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
    await admin.end();
  }
}
