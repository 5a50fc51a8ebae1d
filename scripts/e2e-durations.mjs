// Records how long each end-to-end spec file took, for the split of the files over the suite's servers
// (e2e/playwright.config.ts, ADR 0045): reads a Playwright JSON report and writes e2e/durations.json, the
// seconds of each file's tests (every result, retries included), by path relative to e2e/.
//   PLAYWRIGHT_JSON_OUTPUT_NAME=/tmp/e2e.json npm run test:e2e -- --reporter=list,json
//   node scripts/e2e-durations.mjs /tmp/e2e.json
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const reportPath = process.argv[2];
if (!reportPath) {
  console.error('usage: node scripts/e2e-durations.mjs <playwright-json-report>');
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

/** The milliseconds of every result of every test under a suite of the report. */
function milliseconds(suite) {
  let total = 0;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? [])
      for (const result of test.results ?? []) total += result.duration ?? 0;
  }
  for (const child of suite.suites ?? []) total += milliseconds(child);
  return total;
}

const seconds = {};
for (const suite of report.suites ?? []) {
  const file = suite.file.split('\\').join('/');
  seconds[file] = (seconds[file] ?? 0) + milliseconds(suite);
}
const durations = Object.fromEntries(
  Object.keys(seconds)
    .sort()
    .map((file) => [file, Math.round(seconds[file] / 100) / 10]),
);
const out = join(root, 'e2e', 'durations.json');
writeFileSync(out, `${JSON.stringify(durations, null, 2)}\n`);
const total = Object.values(durations).reduce((a, b) => a + b, 0);
console.log(`${out}: ${Object.keys(durations).length} files, ${total.toFixed(1)} s in all`);
