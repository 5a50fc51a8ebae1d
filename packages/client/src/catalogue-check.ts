import type { Locale } from '@kabuto/contract';

/**
 * The catalogue checker of both front ends' tests (ADR 0019): every locale has exactly the reference
 * locale's keys, no empty or non-text value, and the same `{{placeholders}}` in each text.
 */

/** The leaves of a nested catalogue as [dotted key, value]. */
export function leaves(node: unknown, prefix = ''): [string, unknown][] {
  if (typeof node !== 'object' || node === null) return [[prefix, node]];
  return Object.entries(node).flatMap(([key, value]) =>
    leaves(value, prefix === '' ? key : `${prefix}.${key}`),
  );
}

/** The sorted `{{name}}` placeholders of a text. */
export function placeholdersOf(text: unknown): string[] {
  return typeof text === 'string'
    ? [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort()
    : [];
}

/** What is wrong with `locale`'s catalogue next to the reference's, one line each; empty when nothing is. */
export function catalogueProblems(
  catalogues: Readonly<Record<Locale, unknown>>,
  locale: Locale,
  reference: Locale = 'en',
): string[] {
  const expected = new Map(leaves(catalogues[reference]));
  const actual = new Map(leaves(catalogues[locale]));
  const problems: string[] = [];
  for (const key of expected.keys()) if (!actual.has(key)) problems.push(`${locale}: missing ${key}`);
  for (const [key, value] of actual) {
    if (!expected.has(key)) {
      problems.push(`${locale}: ${key} is not in ${reference}`);
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${locale}: ${key} is empty or not a text`);
      continue;
    }
    const want = placeholdersOf(expected.get(key)).join(', ');
    const got = placeholdersOf(value).join(', ');
    if (got !== want)
      problems.push(`${locale}: ${key} has placeholders [${got}], ${reference} has [${want}]`);
  }
  return problems;
}
