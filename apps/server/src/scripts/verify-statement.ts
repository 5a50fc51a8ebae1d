/**
 * Verifies a downloaded statement (CSV) on its own: every line's hash recomputes from its content and the
 * previous line's hash, the sequence has no gap and every balance follows from the previous one.
 *   npm run verify-statement -- path/to/statement.csv
 * To check it against the ledger as well, post it to POST /api/ledger/verifyStatement (the transaction log
 * page does this).
 */
import { readFileSync } from 'node:fs';
import { parseStatement, verifyStatement } from '../modules/ledger/statement.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run verify-statement -- <statement.csv>');
  process.exit(2);
}
const lines = parseStatement(readFileSync(file, 'utf8'));
if (lines === null) {
  console.error(`${file}: not a Kabuto statement`);
  process.exit(1);
}
const result = verifyStatement(lines);
if (result.valid) {
  console.log(`${file}: valid, ${result.lines} lines, chain intact`);
} else {
  console.error(`${file}: INVALID at line ${String(result.first_bad_line)} (${String(result.problem)})`);
  process.exit(1);
}
