/**
 * PostgreSQL array literals (`{1,2,NULL}`, `{"a b",c}`) for the array parameters of the daily jobs' batch
 * statements (`$1::int[]`, `$2::text[]`): passed as one string, which both drivers send as it is and the
 * statement's cast parses. node-postgres's own encoding of a JavaScript array quotes every element and runs
 * two regular expressions on it, numbers included; for the tens of thousands of elements of a batch of
 * entries that was more of the jobs' CPU than hashing the postings (bench/README.md, ADR 0037).
 */

/** An `int[]` or `bigint[]` literal; null is NULL. The numbers must be integers (money is, in sen). */
export function intArrayLiteral(values: readonly (number | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      parts[i] = 'NULL';
      continue;
    }
    if (!Number.isSafeInteger(v)) throw new RangeError(`not a safe integer: ${String(v)}`);
    parts[i] = String(v);
  }
  return `{${parts.join(',')}}`;
}

/** Elements that need no quotes: nothing the array syntax gives a meaning to (the word NULL aside). */
const BARE = /^[A-Za-z0-9_.:+-]+$/;
const ESCAPED = /[\\"]/g;

/**
 * A `text[]` (or `timestamptz[]`, `boolean[]`...) literal of strings; null is NULL. An element is written bare
 * when it is plainly safe (hex hashes, ISO timestamps, kinds), otherwise double-quoted with `"` and `\`
 * escaped; a string "NULL" is quoted, so it stays a string.
 */
export function textArrayLiteral(values: readonly (string | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (BARE.test(v) && !(v.length === 4 && v.toUpperCase() === 'NULL')) parts[i] = v;
    else parts[i] = `"${v.replace(ESCAPED, '\\$&')}"`;
  }
  return `{${parts.join(',')}}`;
}
