/**
 * Micro-benchmark behind a rule of the order path (bench/README.md, 2026-11-24): on Node 20's V8, an object
 * literal with more than one spread (`{ ...a, ...b }`) is built on a slow path that makes new hidden
 * classes on every call, so it costs tens of microseconds and leaves old-space garbage; one spread followed by
 * plain properties, or Object.assign, does not. The shapes are those of the order's write statement
 * (trading/service.ts writeNewOrder): ledger entry, message, idempotency answer, order. Prints µs per call and
 * how many minor (scavenge) and major (mark-compact) collections the calls caused.
 *   npm run bench:spread
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';

const entry = {
  entryId: 1,
  entryKind: 'order_fill',
  entryMemo: null,
  entryRef: 'X123',
  entryAt: new Date(),
  postingAccounts: [1, 2],
  postingAmounts: [1n, 2n],
  postingUsers: [1, null],
  postingSeqs: [3, null],
  postingHashes: ['a', null],
};
const entryParams = () => ({
  entryId: entry.entryId,
  entryKind: entry.entryKind,
  entryMemo: entry.entryMemo,
  entryRef: entry.entryRef,
  entryAt: entry.entryAt,
  postingAccounts: entry.postingAccounts,
  postingAmounts: entry.postingAmounts,
  postingUsers: entry.postingUsers,
  postingSeqs: entry.postingSeqs,
  postingHashes: entry.postingHashes,
});
const message = () => ({
  messageId: 1,
  messageUser: 2,
  messageKind: 'order.filled',
  messageParams: '{}',
  messageAt: new Date(),
});
const answers = [
  { answerUser: 1, answerKey: 'k', answerJson: '{}' },
  { answerUser: null, answerKey: null, answerJson: null },
];
const order = {
  id: 1,
  orderNo: 'A',
  userId: 1,
  code: '7203',
  kind: 'open',
  direction: 'long',
  side: 'buy',
  priceType: 'market',
  limitPrice: null,
  quantity: 100,
  leverage: 1,
  dayTrade: false,
  venue: 'exchange',
  positionId: 3,
  status: 'filled',
  fillPrice: 1,
  principal: 1,
  fee: 0,
  reserved: 0,
  createdAt: new Date(),
  filledAt: new Date(),
};

const variants: Record<string, (i: number) => object> = {
  'one literal, four spreads': (i) => ({
    ...entry,
    ...message(),
    ...answers[i % 2],
    ...order,
    collateral: 0,
  }),
  // as writeNewOrder does it: onto the entry's parameters, a fresh object literal
  'Object.assign': (i) =>
    Object.assign(entryParams(), message(), answers[i % 2], { ...order, collateral: 0 }),
  // what not to do either: properties added to an object made by a spread take the same slow path
  'Object.assign onto a spread': (i) =>
    Object.assign({ ...entry }, message(), answers[i % 2], { ...order, collateral: 0 }),
  'one spread, then properties': () => ({ ...order, collateral: 0 }),
};

const gcs = { minor: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
    const kind = detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcs.major += 1;
    else gcs.minor += 1;
  }
}).observe({ entryTypes: ['gc'] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

let sink: object | undefined;
const N = 50_000;
for (const [name, make] of Object.entries(variants)) {
  for (let i = 0; i < 5_000; i++) sink = make(i);
  await settle();
  gcs.minor = 0;
  gcs.major = 0;
  const start = performance.now();
  for (let i = 0; i < N; i++) sink = make(i);
  const micros = ((performance.now() - start) * 1000) / N;
  await settle();
  console.log(
    `${name.padEnd(30)} ${micros.toFixed(2).padStart(7)} µs/call   ${N} calls: ${gcs.minor} minor, ${gcs.major} major GCs`,
  );
}
if (!sink) throw new Error('unreachable');
