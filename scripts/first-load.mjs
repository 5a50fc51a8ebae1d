// The first-load size check (issue 21): what the web app's index.html makes the browser download before the
// app's first render (the entry script, its modulepreloads and the stylesheets it links, and, from the build's
// chunk graph, the app the entry script imports at once with everything that imports statically: ADR 0038's
// evening amendment), each file gzipped at level 9 as the build's precompressed copies are. Fails above the limit, warns above the target, and prints the
// biggest chunks and modules (from the build's module-size file, apps/web/build/module-sizes.ts).
// Usage: node scripts/first-load.mjs [dist folder] [module-size file] [chunk-graph file]. Node built-ins only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const TARGET_KIB = 150;
export const LIMIT_KIB = 200;

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The files index.html loads itself, as paths relative to `base`; `entries` are its scripts. */
export function initialFiles(html, base) {
  const files = { js: [], css: [], entries: [] };
  const attr = (tag, name) => new RegExp(`\\s${name}=["']([^"']+)["']`).exec(tag)?.[1];
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const isScript = tag.startsWith('<script');
    const rel = attr(tag, 'rel');
    const url = isScript ? attr(tag, 'src') : attr(tag, 'href');
    if (url === undefined) continue;
    if (isScript) files.entries.push(url);
    if (isScript && attr(tag, 'type') !== 'module' && !/\sdefer[\s>]/.test(tag)) {
      files.js.push(url); // a classic script blocks the parser: it counts too
    } else if (isScript || rel === 'modulepreload') {
      files.js.push(url);
    } else if (rel === 'stylesheet') {
      files.css.push(url);
    }
  }
  const local = (url) => (url.startsWith(base) ? url.slice(base.length) : url.replace(/^\//, ''));
  return {
    js: [...new Set(files.js.map(local))],
    css: [...new Set(files.css.map(local))],
    entries: [...new Set(files.entries.map(local))],
  };
}

/** The app's chunk (main.tsx), the one the entry script imports for every page. */
export const APP_CHUNK = 'main';

/**
 * Adds what the entry scripts pull in at start to `files`: the app they import (the chunk named APP_CHUNK;
 * index.html's script is a loader whose dynamic imports are the app, the opened page's code and the reader's
 * catalogues, boot.ts), and, from there, every static import and imported stylesheet. The pages' code and the
 * catalogues stay out: each is loaded for one page or one language only.
 * `graph` maps a chunk's file to its `name`, `imports`, `dynamicImports` and `css` (apps/web/build/module-sizes.ts).
 */
export function startFiles(files, graph) {
  const js = new Set(files.js);
  const css = new Set(files.css);
  const visit = (file) => {
    const links = graph[file];
    js.add(file);
    if (links === undefined) return;
    for (const sheet of links.css) css.add(sheet);
    for (const next of links.imports) if (!js.has(next)) visit(next);
  };
  for (const entry of files.entries) {
    visit(entry);
    for (const next of graph[entry]?.dynamicImports ?? []) {
      if (graph[next]?.name === APP_CHUNK && !js.has(next)) visit(next);
    }
  }
  return { js: [...js], css: [...css] };
}

/**
 * Sizes of the first load of the built front end in `dist` (whose index.html is served under `base`), with the
 * build's chunk graph when there is one.
 */
export function measure(dist, base = '/japan1/', graph = undefined) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = initialFiles(html, base);
  const { js, css } = graph === undefined ? files : startFiles(files, graph);
  const size = (file) => {
    const data = readFileSync(join(dist, file));
    return { file, bytes: data.length, gzip: gzipSync(data, { level: 9 }).length };
  };
  const scripts = js.map(size).sort((a, b) => b.gzip - a.gzip);
  const styles = css.map(size).sort((a, b) => b.gzip - a.gzip);
  return {
    scripts,
    styles,
    jsGzip: scripts.reduce((n, f) => n + f.gzip, 0),
    cssGzip: styles.reduce((n, f) => n + f.gzip, 0),
  };
}

/**
 * The web fonts a build would make the browser download: font files among its assets and @font-face rules in
 * its stylesheets. The app uses the system's fonts (CJK included), so this must stay empty.
 */
export function webFonts(dist) {
  const assets = join(dist, 'assets');
  const names = existsSync(assets) ? readdirSync(assets) : [];
  return [
    ...names.filter((name) => /\.(woff2?|ttf|otf|eot)$/i.test(name)),
    ...names
      .filter(
        (name) => name.endsWith('.css') && readFileSync(join(assets, name), 'utf8').includes('@font-face'),
      )
      .map((name) => `@font-face in ${name}`),
  ];
}

/** The app's own catalogues: the contract's messages and the web app's strings, one module per language. */
const CATALOGUE = /(?:^|\/)(?:messages|locales)\/(ja|zh-Hans|zh-Hant|en|es|fr)\.ts$/;

/**
 * The chunks that load the catalogues of more than one language with them: every chunk, with the languages
 * whose catalogue modules it reaches through static imports. A page should download the reader's language
 * only, loaded on demand (issue 21); one static import of every catalogue (as `translate` has) made every page
 * that read a schema beside it download all six. `modules` maps a chunk to its modules, `graph` to its links.
 */
export function eagerCatalogues(graph, modules) {
  const languagesOf = new Map();
  const reach = (file, seen) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of graph[file]?.imports ?? []) reach(next, seen);
  };
  for (const [file, list] of Object.entries(modules)) {
    const languages = list.map((m) => CATALOGUE.exec(m.id)?.[1]).filter((l) => l !== undefined);
    if (languages.length > 0) languagesOf.set(file, new Set(languages));
  }
  const offenders = [];
  for (const file of Object.keys(graph)) {
    const seen = new Set();
    reach(file, seen);
    const languages = new Set([...seen].flatMap((f) => [...(languagesOf.get(f) ?? [])]));
    if (languages.size > 1) offenders.push({ file, languages: [...languages].sort() });
  }
  return offenders;
}

/**
 * The chunks that carry Vite's own preload helper. The web build swaps in the app's loader
 * (apps/web/build/preload-helper.ts, ADR 0060), which announces an import's chunks a few per task; if Vite's came
 * back (a Vite upgrade resolving it another way), every page's first tasks would be long again with no other sign.
 */
export function viteLoaders(modules) {
  return Object.entries(modules)
    .filter(([, list]) => list.some((m) => m.id.replace(/\0/g, '') === 'vite/preload-helper.js'))
    .map(([file]) => file);
}

/** 'fail' above the limit, 'warn' above the target, else 'ok'. */
export function verdict(jsGzip, target = TARGET_KIB, limit = LIMIT_KIB) {
  if (jsGzip > limit * 1024) return 'fail';
  if (jsGzip > target * 1024) return 'warn';
  return 'ok';
}

/** The report's lines: the total, the chunks, and the biggest modules of the first load. */
export function report(result, modules, top = 15) {
  const lines = [
    `First load of the web app: ${kib(result.jsGzip)} of JavaScript gzipped in ${result.scripts.length} files ` +
      `(target ${TARGET_KIB} KiB, limit ${LIMIT_KIB} KiB), ${kib(result.cssGzip)} of CSS.`,
    'Chunks (gzipped):',
    ...result.scripts.map((f) => `  ${kib(f.gzip).padStart(10)}  ${f.file}`),
  ];
  if (modules !== undefined) {
    const initial = result.scripts.flatMap((f) => modules[f.file.replace(/^assets\//, 'assets/')] ?? []);
    // A package's modules are added up, the app's own files stay one by one.
    const byPackage = new Map();
    for (const m of initial) {
      const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m.id)?.[1] ?? m.id;
      const sum = byPackage.get(pkg) ?? { bytes: 0, gzip: 0 };
      byPackage.set(pkg, { bytes: sum.bytes + m.bytes, gzip: sum.gzip + m.gzip });
    }
    const biggest = [...byPackage.entries()].sort((a, b) => b[1].gzip - a[1].gzip).slice(0, top);
    lines.push(
      `Biggest packages and files of the first load (as rendered before minification, each module gzipped alone: for ranking, not adding up):`,
      ...biggest.map(
        ([id, s]) => `  ${kib(s.gzip).padStart(10)} gzipped  ${kib(s.bytes).padStart(10)}  ${id}`,
      ),
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dist = process.argv[2] ?? join(root, 'apps/web/dist');
  const modulesFile = process.argv[3] ?? join(root, 'apps/web/.vite/module-sizes.json');
  const graphFile = process.argv[4] ?? join(root, 'apps/web/.vite/chunk-graph.json');
  if (!existsSync(join(dist, 'index.html')) || !existsSync(graphFile)) {
    console.error(`${dist}/index.html or ${graphFile} is missing: build the web app first (npm run build).`);
    process.exit(2);
  }
  const result = measure(dist, '/japan1/', JSON.parse(readFileSync(graphFile, 'utf8')));
  const modules = existsSync(modulesFile) ? JSON.parse(readFileSync(modulesFile, 'utf8')) : undefined;
  for (const line of report(result, modules)) console.log(line);
  const fonts = webFonts(dist);
  if (fonts.length > 0) {
    console.error(`✗ Web fonts in the build (the app uses the system's fonts): ${fonts.join(', ')}`);
    process.exit(1);
  }
  console.log('Web fonts: none (system fonts).');
  if (modules !== undefined) {
    const eager = eagerCatalogues(JSON.parse(readFileSync(graphFile, 'utf8')), modules);
    if (eager.length > 0) {
      console.error(
        "✗ Chunks that download the catalogues of several languages at once (only the reader's should load):",
      );
      for (const { file, languages } of eager) console.error(`  ${file}: ${languages.join(', ')}`);
      process.exit(1);
    }
    console.log('Catalogues: every chunk loads one language at most.');
    const vite = viteLoaders(modules);
    if (vite.length > 0) {
      console.error(
        `✗ Vite's own preload helper is in ${vite.join(', ')}: the app's loader (apps/web/src/app/preload.ts) should be.`,
      );
      process.exit(1);
    }
    console.log("Loader: the app's own (chunks announced a few per task).");
  }
  const outcome = verdict(result.jsGzip);
  if (outcome === 'fail') {
    console.error(`✗ The first load is ${kib(result.jsGzip)}, above the hard limit of ${LIMIT_KIB} KiB.`);
    process.exit(1);
  }
  if (outcome === 'warn')
    console.warn(`! Above the target of ${TARGET_KIB} KiB (the limit is ${LIMIT_KIB} KiB).`);
}
