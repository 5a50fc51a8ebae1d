import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Writes dist/sw.js (issue 21, ADR 0039): ./service-worker.js with this build's app shell, every file Vite
 * wrote and every file of public/, under the app's base, and a version that changes whenever any of their
 * contents does (so a browser sees a new worker, installs it and the page offers the new version).
 */
export function serviceWorker(): Plugin {
  let base = '/';
  let publicDir = '';
  return {
    name: 'kabuto-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
      publicDir = config.publicDir;
    },
    generateBundle(_options, bundle) {
      const hash = createHash('sha256');
      const files = new Map<string, string | Uint8Array>();
      for (const [name, item] of Object.entries(bundle)) {
        files.set(name, item.type === 'chunk' ? item.code : item.source);
      }
      for (const name of publicDir === '' ? [] : listFiles(publicDir)) {
        files.set(relative(publicDir, name).replaceAll('\\', '/'), readFileSync(name));
      }
      const shell = [...files.keys()].filter((name) => !name.endsWith('.map') && name !== 'sw.js').sort();
      for (const name of shell)
        hash
          .update(name)
          .update('\0')
          .update(files.get(name) ?? '');
      const build = {
        version: hash.digest('hex').slice(0, 16),
        scope: base,
        shell: shell.map((name) => `${base}${name}`),
      };
      const template = readFileSync(new URL('./service-worker.js', import.meta.url), 'utf8');
      const line = "const BUILD = { version: 'dev', scope: '/', shell: [] };";
      if (!template.includes(line)) throw new Error(`service-worker.js lost its line: ${line}`);
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: template.replace(line, `const BUILD = ${JSON.stringify(build)};`),
      });
    },
  };
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}
