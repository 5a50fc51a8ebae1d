import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  eagerCatalogues,
  initialFiles,
  LIMIT_KIB,
  measure,
  report,
  startFiles,
  TARGET_KIB,
  verdict,
  viteLoaders,
  webFonts,
} from './first-load.mjs';

/** A fake build: index.html loading `entry` and `preloads`, each file `kib` KiB of incompressible bytes. */
function fakeDist(files: Record<string, number>, extraHtml = ''): string {
  const dist = mkdtempSync(join(tmpdir(), 'kabuto-first-load-'));
  mkdirSync(join(dist, 'assets'));
  const [entry, ...preloads] = Object.keys(files);
  for (const [name, kib] of Object.entries(files)) {
    // random bytes do not compress: the gzipped size is the raw size plus a few bytes
    writeFileSync(join(dist, 'assets', name), randomBytes(kib * 1024).toString('latin1'), 'latin1');
  }
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head>
<script type="module" crossorigin src="/japan1/assets/${entry}"></script>
${preloads.map((p) => `<link rel="modulepreload" crossorigin href="/japan1/assets/${p}">`).join('\n')}
${extraHtml}
</head><body><div id="root"></div></body></html>`,
  );
  return dist;
}

describe('first-load size check', () => {
  it('reads the entry script, its modulepreloads and stylesheets from index.html, not lazy chunks', () => {
    const html = `<script type="module" crossorigin src="/japan1/assets/index-a.js"></script>
      <link rel="modulepreload" crossorigin href="/japan1/assets/react-b.js">
      <link rel="stylesheet" crossorigin href="/japan1/assets/index-c.css">
      <link rel="icon" href="/japan1/favicon.svg">
      <link rel="manifest" href="/japan1/manifest.webmanifest">`;
    expect(initialFiles(html, '/japan1/')).toEqual({
      js: ['assets/index-a.js', 'assets/react-b.js'],
      css: ['assets/index-c.css'],
      entries: ['assets/index-a.js'],
    });
  });

  it("follows the app the entry script imports, with its static imports, but not the pages' or catalogues' chunks", () => {
    const files = { js: ['assets/boot.js'], css: [], entries: ['assets/boot.js'] };
    const graph = {
      // the loader imports the app, and beside it the opened page and the reader's catalogue (boot.ts)
      'assets/boot.js': {
        name: 'index',
        imports: [],
        dynamicImports: ['assets/main.js', 'assets/login-page.js', 'assets/ja.js'],
        css: [],
      },
      'assets/main.js': {
        name: 'main',
        imports: ['assets/react.js', 'assets/i18n.js'],
        dynamicImports: ['assets/home-page.js', 'assets/i18n-ja.js'],
        css: ['assets/main.css'],
      },
      'assets/i18n.js': { name: 'i18n', imports: ['assets/react.js'], dynamicImports: [], css: [] },
      'assets/react.js': { name: 'react', imports: [], dynamicImports: [], css: [] },
      'assets/login-page.js': {
        name: 'login-page',
        imports: ['assets/form.js'],
        dynamicImports: [],
        css: [],
      },
      'assets/ja.js': { name: 'ja', imports: [], dynamicImports: [], css: [] },
      'assets/home-page.js': {
        name: 'home-page',
        imports: ['assets/chart.js'],
        dynamicImports: [],
        css: ['assets/home.css'],
      },
    };
    expect(startFiles(files, graph)).toEqual({
      js: ['assets/boot.js', 'assets/main.js', 'assets/react.js', 'assets/i18n.js'],
      css: ['assets/main.css'],
    });
  });

  it('counts the app the entry script imports in the measured total', () => {
    const dist = fakeDist({ 'boot.js': 1, 'main.js': 50 });
    const graph = {
      'assets/boot.js': { name: 'index', imports: [], dynamicImports: ['assets/main.js'], css: [] },
      'assets/main.js': { name: 'main', imports: [], dynamicImports: [], css: [] },
    };
    // fakeDist lists main.js as a modulepreload; take it out so that only the graph can find it
    const html = join(dist, 'index.html');
    writeFileSync(html, readFileSync(html, 'utf8').replace(/<link rel="modulepreload"[^>]*>/, ''));
    expect(measure(dist).scripts.map((f) => f.file)).toEqual(['assets/boot.js']);
    expect(measure(dist, '/japan1/', graph).jsGzip).toBeGreaterThan(51 * 1024);
  });

  it('counts a classic blocking script too', () => {
    expect(initialFiles('<script src="/japan1/assets/legacy.js"></script>', '/japan1/').js).toEqual([
      'assets/legacy.js',
    ]);
  });

  it('sums the gzipped sizes of the files index.html loads', () => {
    const result = measure(fakeDist({ 'index.js': 40, 'vendor.js': 30 }));
    expect(result.scripts.map((f) => f.file)).toEqual(['assets/index.js', 'assets/vendor.js']);
    expect(result.jsGzip).toBeGreaterThan(70 * 1024);
    expect(result.jsGzip).toBeLessThan(71 * 1024);
  });

  it('fails above the limit, warns above the target, passes below', () => {
    const over = measure(fakeDist({ 'index.js': LIMIT_KIB - 20, 'vendor.js': 30 }));
    expect(verdict(over.jsGzip)).toBe('fail');
    const between = measure(fakeDist({ 'index.js': TARGET_KIB - 10, 'vendor.js': 20 }));
    expect(verdict(between.jsGzip)).toBe('warn');
    const under = measure(fakeDist({ 'index.js': TARGET_KIB - 40, 'vendor.js': 20 }));
    expect(verdict(under.jsGzip)).toBe('ok');
  });

  it('names the biggest packages of the first load, not those of lazy chunks', () => {
    const result = measure(fakeDist({ 'index.js': 10 }));
    const lines = report(result, {
      'assets/index.js': [
        { id: 'node_modules/react-dom/cjs/react-dom.production.js', bytes: 9000, gzip: 3000 },
        { id: 'node_modules/react-dom/index.js', bytes: 100, gzip: 72 },
        { id: 'apps/web/src/main.tsx', bytes: 500, gzip: 300 },
      ],
      'assets/chart.js': [{ id: 'node_modules/lightweight-charts/dist/x.js', bytes: 90000, gzip: 50000 }],
    }).join('\n');
    expect(lines).toMatch(/3\.0 KiB gzipped .* react-dom\n.*apps\/web\/src\/main\.tsx/);
    expect(lines).not.toContain('lightweight-charts');
  });

  it('finds web fonts: font files and @font-face rules', () => {
    const dist = fakeDist({ 'index.js': 1 });
    expect(webFonts(dist)).toEqual([]);
    writeFileSync(join(dist, 'assets', 'noto-sans-jp.woff2'), 'x');
    writeFileSync(join(dist, 'assets', 'index.css'), '@font-face{font-family:X;src:url(x.woff2)}');
    expect(webFonts(dist)).toEqual(['noto-sans-jp.woff2', '@font-face in index.css']);
  });
  it('names the chunks that reach the catalogues of more than one language, and passes one per language', () => {
    const links = (imports: string[], dynamicImports: string[] = []) => ({
      imports,
      dynamicImports,
      css: [],
    });
    const mod = (id: string) => ({ id, bytes: 1, gzip: 1 });
    const modules = {
      'assets/loader.js': [mod('apps/web/src/locales/load.ts')],
      'assets/ja.js': [mod('apps/web/src/locales/ja.ts')],
      'assets/en.js': [mod('apps/web/src/locales/en.ts')],
      'assets/msg-ja.js': [mod('packages/contract/src/messages/ja.ts')],
      'assets/msg-fr.js': [mod('packages/contract/src/messages/fr.ts')],
      'assets/opening.js': [mod('packages/contract/src/api/opening.ts')],
      'assets/detail-page.js': [mod('apps/web/src/features/stock-detail/page.tsx')],
      'assets/legal.js': [mod('apps/web/src/features/legal/content/en.ts')],
    };
    // the loader imports each language on demand; a page reaching one catalogue statically is allowed
    const fine = {
      'assets/loader.js': links([], ['assets/ja.js', 'assets/en.js', 'assets/msg-ja.js', 'assets/msg-fr.js']),
      'assets/detail-page.js': links(['assets/opening.js']),
      'assets/opening.js': links([]),
      'assets/legal.js': links(['assets/msg-ja.js']),
    };
    expect(eagerCatalogues(fine, modules)).toEqual([]);
    // a schema's module importing every catalogue: the page that reads it downloads both languages
    const eager = { ...fine, 'assets/opening.js': links(['assets/msg-ja.js', 'assets/msg-fr.js']) };
    expect(eagerCatalogues(eager, modules)).toEqual([
      { file: 'assets/detail-page.js', languages: ['fr', 'ja'] },
      { file: 'assets/opening.js', languages: ['fr', 'ja'] },
    ]);
  });
  it("names a chunk that carries Vite's own preload helper instead of the app's loader", () => {
    const mod = (id: string) => ({ id, bytes: 1, gzip: 1 });
    const ours = { 'assets/index.js': [mod('apps/web/src/boot.ts'), mod('apps/web/src/app/preload.ts')] };
    expect(viteLoaders(ours)).toEqual([]);
    // module-sizes.ts keeps the id as Rollup gives it, without the leading NUL
    const vite = { ...ours, 'assets/main.js': [mod('vite/preload-helper.js')] };
    expect(viteLoaders(vite)).toEqual(['assets/main.js']);
    expect(viteLoaders({ 'assets/x.js': [mod('\0vite/preload-helper.js')] })).toEqual(['assets/x.js']);
  });
});
