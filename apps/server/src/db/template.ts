import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A first start on a new data folder copies a migrated PGlite data folder made by `npm run build` instead of
 * running initdb and every migration (ADR 0046): initdb alone is 3.5-5 s of a 7-11 s first start.
 *
 * The template is a data folder, PGlite's own, closed cleanly after the migrations, kept under
 * `apps/server/dist/pglite-template/<hash>` where the hash is that of PGlite's package.json (its release,
 * whose data folder format the template is) and of every file of the migrations folder. A start looks only
 * for the folder of the hash it computes itself: another PGlite, or a changed or added migration, finds no
 * template and runs initdb and the migrations as before. The copy goes to a folder beside the data folder and
 * is renamed into place when whole, so a start killed mid-copy leaves no half database behind.
 */
export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Where `npm run build` leaves the template (the same path from src/ under tsx and from dist/). */
export const templatesFolder = fileURLToPath(new URL('../../dist/pglite-template', import.meta.url));

/** The hash of the migrations' files and of the PGlite release (whose data folder format a template is). */
export function migrationsHash(folder = migrationsFolder): string {
  const hash = createHash('sha256');
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const root = entry.slice(0, entry.lastIndexOf('@electric-sql/pglite') + '@electric-sql/pglite'.length);
  hash.update(readFileSync(join(root, 'package.json')));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(folder);
  return hash.digest('hex').slice(0, 16);
}

/** How a PGlite data folder came to be opened: already there, copied from the template, or a new initdb. */
export type DataFolderOrigin = 'existing' | 'template' | 'initdb';

/** A data folder exists when PostgreSQL's PG_VERSION is in it (PGlite tests the same file). */
export function hasDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * Before PGlite opens `dataDir`: when it holds no database and a template for `hash` is in `templates`, copies
 * the template there. Answers what PGlite will find: 'existing', 'template', or 'initdb' (no usable template,
 * or a data folder with files in it but no database, which is left to PGlite as it is).
 */
export function restoreTemplate(
  dataDir: string,
  templates: string = templatesFolder,
  hash?: string,
): DataFolderOrigin {
  if (hasDatabase(dataDir)) return 'existing';
  const template = join(templates, hash ?? migrationsHash());
  if (!hasDatabase(template)) return 'initdb';
  if (existsSync(dataDir)) {
    if (readdirSync(dataDir).length > 0) return 'initdb';
    rmdirSync(dataDir);
  }
  mkdirSync(dirname(dataDir), { recursive: true });
  const partial = `${dataDir}.partial-${String(process.pid)}`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  renameSync(partial, dataDir);
  return 'template';
}

/**
 * Makes the template for the current migrations and PGlite (`npm run build`, src/scripts/pglite-template.ts):
 * a new data folder, migrated with `migrate`, closed, then renamed into place; templates of other hashes are
 * removed. Nothing to do when the template is already there.
 */
export async function makeTemplate(
  migrate: (dataDir: string) => Promise<void>,
  templates: string = templatesFolder,
  hash: string = migrationsHash(),
): Promise<{ path: string; made: boolean }> {
  const path = join(templates, hash);
  mkdirSync(templates, { recursive: true });
  for (const entry of readdirSync(templates))
    if (entry !== hash) rmSync(join(templates, entry), { recursive: true, force: true });
  if (hasDatabase(path)) return { path, made: false };
  const partial = `${path}.partial-${String(process.pid)}`;
  rmSync(partial, { recursive: true, force: true });
  await migrate(partial);
  renameSync(partial, path);
  return { path, made: true };
}
