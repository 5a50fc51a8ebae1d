import { createRequire } from 'node:module';

/** The part of randexp used here. It is CommonJS whose module.exports is the class itself, while its own types
 *  declare a default export (and reach for `ret` types its package does not ship), so it is loaded this way. */
interface PatternGenerator {
  max: number;
  defaultRange: { subtract(from: number, to: number): unknown };
  randInt: (from: number, to: number) => number;
  gen(): string;
}
const RandExp = createRequire(import.meta.url)('randexp') as new (pattern: string) => PatternGenerator;

/**
 * Values for a JSON schema as the OpenAPI document prints it (zod through fastify-type-provider-zod): a
 * schema-valid sample, and the hostile variants of one value that the fuzzer sends in its place. Seeded, so
 * a failure names a case that runs again the same way.
 */
export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  nullable?: boolean;
  default?: unknown;
};

/** A small seeded generator (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)] as T;
const int = (random: () => number, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** A value the schema accepts (best effort: patterns through randexp, dates, bounds, enums, unions). */
export function sample(schema: JsonSchema, random: () => number, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return pick(random, schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) {
    const options = union.filter((s) => typeOf(s) !== 'null');
    return sample(pick(random, options.length > 0 ? options : union), random, depth);
  }
  if (schema.allOf && schema.allOf.length > 0)
    return sample(Object.assign({}, ...schema.allOf) as JsonSchema, random, depth);
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [name, child] of Object.entries(schema.properties ?? {})) {
        if (required.has(name) || (depth < 3 && random() < 0.6)) out[name] = sample(child, random, depth + 1);
      }
      return out;
    }
    case 'array': {
      const lo = schema.minItems ?? 0;
      const hi = Math.min(schema.maxItems ?? lo + 2, lo + 2);
      return Array.from({ length: int(random, lo, hi) }, () =>
        schema.items ? sample(schema.items, random, depth + 1) : null,
      );
    }
    case 'integer':
    case 'number': {
      let lo = typeof schema.minimum === 'number' ? schema.minimum : 1;
      let hi = typeof schema.maximum === 'number' ? schema.maximum : lo + 1_000;
      if (schema.exclusiveMinimum === true) lo += 1;
      if (typeof schema.exclusiveMinimum === 'number') lo = schema.exclusiveMinimum + 1;
      if (schema.exclusiveMaximum === true) hi -= 1;
      if (typeof schema.exclusiveMaximum === 'number') hi = schema.exclusiveMaximum - 1;
      // Small values half the time: they name rows that exist (ids), quantities a balance can pay.
      hi = Math.min(hi, lo + (random() < 0.5 ? 5 : 100_000));
      return int(random, Math.ceil(lo), Math.floor(hi));
    }
    case 'boolean':
      return random() < 0.5;
    case 'string':
      return sampleString(schema, random);
    case 'null':
      return null;
    default:
      return schema.default ?? 'x';
  }
}

function sampleString(schema: JsonSchema, random: () => number): string {
  if (schema.format === 'date') return '2026-11-24';
  if (schema.format === 'date-time') return '2026-11-24T01:00:00.000Z';
  if (schema.format === 'email') return 'fuzz@example.jp';
  if (schema.format === 'uri') return 'https://example.jp/';
  if (schema.pattern) {
    const generator = new RandExp(schema.pattern);
    generator.max = 6;
    generator.defaultRange.subtract(0, 31);
    generator.randInt = (from: number, to: number) => int(random, from, to);
    return generator.gen();
  }
  const lo = schema.minLength ?? 1;
  const hi = Math.max(lo, Math.min(schema.maxLength ?? lo + 8, lo + 8));
  return Array.from({ length: int(random, lo, hi) }, () => pick(random, Array.from('abcxyz019あ株'))).join(
    '',
  );
}

/** What the fuzzer sends in place of one valid value: wrong types, edges, control characters, huge text. */
export function hostileValues(schema: JsonSchema): Array<[string, unknown]> {
  const common: Array<[string, unknown]> = [
    ['null', null],
    ['an object', { nested: { deeper: [1] } }],
    ['an array', [1, 'two', null]],
    ['NUL inside text', 'a\u0000b'],
    ['a lone surrogate', '\ud800'],
    ['64 KiB of text', 'あ'.repeat(65_536)],
  ];
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return [
        ...common,
        ['a numeric string', '12'],
        ['text', 'twelve'],
        ['a boolean', true],
        ['-1', -1],
        ['0', 0],
        ['a fraction', 1.5],
        ['2^53', 2 ** 53],
        ['-2^53', -(2 ** 53)],
        ['1e308', 1e308],
      ];
    case 'boolean':
      return [...common, ['the string "true"', 'true'], ['1', 1]];
    case 'array':
      return [...common.filter(([name]) => name !== 'an array'), ['10,000 items', Array(10_000).fill(1)]];
    case 'object':
      return [...common.filter(([name]) => name !== 'an object'), ['a number', 7]];
    default:
      return [
        ...common,
        ['a number', 12],
        ['a boolean', false],
        ['empty', ''],
        ['spaces', '   '],
        ['control characters', '\u0001\u001b[31m\u007f'],
        ['SQL', "' OR 1=1; DROP TABLE users; --"],
        ['a path', '../../etc/passwd'],
        ['markup', '<script>alert(1)</script>'],
        ['20,000 digits', '9'.repeat(20_000)],
      ];
  }
}

/** The text form of a value in a query string or path segment. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
