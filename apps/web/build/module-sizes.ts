import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** One module's share of a built chunk: its rendered (minified) length and that text gzipped on its own. */
export interface ModuleSize {
  id: string;
  bytes: number;
  gzip: number;
}

/** What the first-load size check (scripts/first-load.mjs) reads to name the biggest modules. */
export type ModuleSizes = Record<string, ModuleSize[]>;

/** A chunk's links to others, for the size check to follow what the entry script loads (ADR 0038). */
export interface ChunkLinks {
  /** the chunk's name: its entry's file name without extension ('main' for main.tsx), or its group's */
  name: string;
  imports: string[];
  dynamicImports: string[];
  css: string[];
}

/** Shortens an absolute module id to `node_modules/<package>/…` or the path inside the repository. */
function shortId(id: string): string {
  const clean = id.replace(/\0/g, '').replace(/\?.*$/, '');
  const nm = clean.lastIndexOf('/node_modules/');
  if (nm >= 0) return clean.slice(nm + 1);
  const apps = clean.search(/\/(apps|packages)\//);
  return apps >= 0 ? clean.slice(apps + 1) : clean;
}

/**
 * Writes, per chunk file name, the modules it contains and their sizes to `file`, and the chunks and styles
 * it imports to `graphFile` (both outside the served dist), so that the size check can follow what the entry
 * script loads and say what a first load is made of, not only how big it is.
 */
export function moduleSizes(file: string, graphFile: string): Plugin {
  return {
    name: 'kabuto-module-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const sizes: ModuleSizes = {};
      const graph: Record<string, ChunkLinks> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        graph[output.fileName] = {
          name: output.name,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          css: [...(output.viteMetadata?.importedCss ?? [])],
        };
        sizes[output.fileName] = Object.entries(output.modules)
          .map(([id, m]) => ({
            id: shortId(id),
            bytes: m.renderedLength,
            gzip: m.code ? gzipSync(m.code).length : 0,
          }))
          .filter((m) => m.bytes > 0)
          .sort((a, b) => b.gzip - a.gzip);
      }
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(sizes));
      writeFileSync(graphFile, JSON.stringify(graph));
    },
  };
}
