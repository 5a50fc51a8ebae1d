// Writes a brotli (.br) and a gzip (.gz) copy next to every compressible file of a built front end, so the
// server sends them as they are (@fastify/static preCompressed) instead of compressing on each request.
// Usage: node scripts/precompress.mjs <dist folder>. Node built-ins only.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.map',
]);
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node scripts/precompress.mjs <dist folder>');
  process.exit(2);
}

let files = 0;
let before = 0;
let afterBrotli = 0;
let afterGzip = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      continue;
    }
    if (!COMPRESSIBLE.has(extname(name))) continue;
    const data = readFileSync(path);
    if (data.length < MIN_BYTES) continue;
    const br = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    const gz = gzipSync(data, { level: 9 });
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gz);
    files += 1;
    before += data.length;
    afterBrotli += br.length;
    afterGzip += gz.length;
  }
};
walk(folder);
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(
  `precompressed ${files} files in ${folder}: ${kib(before)} → brotli ${kib(afterBrotli)}, gzip ${kib(afterGzip)}`,
);
