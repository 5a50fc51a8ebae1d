import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's own imports (src/, tests left out) form no cycle, type-only imports included: code that
 * runs queries takes the database's types from src/db/types.ts, which imports nothing that runs, and only
 * the entry points open a database (src/db/client.ts). Read as text: every `import`/`export ... from` of a
 * relative path.
 */
const root = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /^(?:import|export)\s+(type\s+)?[^'";]*?\bfrom\s+'(\.[^']+)'/gms;

function importsOf(file: string): { path: string; typeOnly: boolean }[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => ({
    path: resolve(dirname(file), (m[2] ?? '').replace(/\.js$/, '.ts')),
    typeOnly: m[1] !== undefined,
  }));
}

/** Every cycle a depth-first walk of `graph` (file → the files it imports) meets, as the files around it. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('server imports', () => {
  const files = sources(root);

  it('reads the imports it checks', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(importsOf(join(root, 'db/client.ts')).map((i) => relative(root, i.path))).toContain(
      'db/pipelined.ts',
    );
  });

  it('form no cycle, type-only imports included', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f).map((i) => i.path)]));
    const cycles = importCycles(graph).map((cycle) => cycle.map((f) => relative(root, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('the walk finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'x']],
      ['c', ['a']],
      ['d', ['d']],
    ]);
    expect(importCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['d', 'd'],
    ]);
  });

  it('db/types.ts loads nothing at run time', () => {
    expect(importsOf(join(root, 'db/types.ts')).every((i) => i.typeOnly)).toBe(true);
    expect(readFileSync(join(root, 'db/types.ts'), 'utf8')).not.toMatch(/^import (?!type )/m);
  });
});
