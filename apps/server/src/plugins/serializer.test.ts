import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope } from '@kabuto/contract';
import { createTestApp, type TestApp } from '../test/harness.js';
import { prng, sample, type JsonSchema } from '../test/schema-sample.js';
import {
  compileSerializer,
  createResponseSerializerCompiler,
  toStringifySchema,
  type SerializerPlan,
} from './serializer.js';

/** What zod's serializer (fastify-type-provider-zod's) answers for a value, or undefined when it rejects it. */
function zodJson(schema: z.core.$ZodType, value: unknown): string | undefined {
  const result = z.safeEncode(schema, value);
  return result.success ? JSON.stringify(result.data) : undefined;
}

function compiled(schema: z.core.$ZodType): (data: unknown) => string {
  const result = compileSerializer(schema);
  if (!result.ok) throw new Error(`not compiled: ${result.reason}`);
  return result.serialize;
}

/** A value drawn from the schema's JSON Schema (checks, formats and patterns honoured), seeded by fast-check. */
function sampled(schema: z.core.$ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return fc.integer().map((seed) => sample(json, prng(seed)));
}

const strings = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '"', '\\', '</script>', '\u2028', '\ud800', 'トヨタ自動車', '\u0000\u001f'),
);

/**
 * Values for a zod schema, including what a handler's object may carry besides (keys the schema does not
 * name, which must not leak), absent optional keys, nulls where nullable, strings with escapes and lone
 * surrogates, and numbers of every size.
 */
function values(schema: z.core.$ZodType): fc.Arbitrary<unknown> {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  const checked = (def.checks?.length ?? 0) > 0;
  switch (def.type) {
    case 'string':
      return checked ? sampled(schema) : strings;
    case 'number':
      return checked
        ? sampled(schema)
        : fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'unknown':
    case 'any':
      return fc.jsonValue();
    case 'literal':
      return fc.constantFrom(...def.values);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries));
    case 'nullable':
      return fc.option(values(def.innerType), { nil: null, freq: 3 });
    case 'optional':
      return fc.option(values(def.innerType), { nil: undefined, freq: 3 });
    case 'readonly':
      return values(def.innerType);
    case 'array':
      return checked ? sampled(schema) : fc.array(values(def.element), { maxLength: 3 });
    case 'union':
      return fc.oneof(...def.options.map((option) => values(option)));
    case 'record': {
      const keyDef = (def.keyType as z.core.$ZodTypes)._zod.def;
      if (keyDef.type === 'enum' || keyDef.type === 'literal') {
        const keys = (keyDef.type === 'enum' ? Object.values(keyDef.entries) : keyDef.values).map(String);
        return fc.record(Object.fromEntries(keys.map((k) => [k, values(def.valueType)])));
      }
      return fc.dictionary(
        keyDef.checks?.length ? sampled(def.keyType).map(String) : fc.string(),
        values(def.valueType),
        {
          maxKeys: 3,
        },
      );
    }
    case 'object': {
      const shape = def.shape;
      const required = Object.keys(shape).filter((k) => shape[k]?._zod.optout !== 'optional');
      const model = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, values(v)]));
      return fc
        .tuple(fc.record(model, { requiredKeys: required }), fc.option(fc.jsonValue(), { freq: 2 }))
        .map(([object, extra]) => (extra === null ? object : { ...object, leaked_internal_field: extra }));
    }
    default:
      return sampled(schema);
  }
}

/** That the compiled serializer answers the same JSON as zod's for every value zod accepts; how many it took. */
function sameAsZod(schema: z.core.$ZodType, numRuns: number): number {
  const serialize = compiled(schema);
  let accepted = 0;
  fc.assert(
    fc.property(values(schema), (value) => {
      const expected = zodJson(schema, value);
      if (expected === undefined) return; // zod answers 500; the compiled serializer is not asked to
      accepted += 1;
      expect(JSON.parse(serialize(value))).toStrictEqual(JSON.parse(expected));
    }),
    { numRuns, seed: 42 },
  );
  return accepted;
}

describe('the compiled response serializer', () => {
  const kitchenSink = envelope(
    z.object({
      id: z.number().int(),
      name: z.string(),
      note: z.string().nullable(),
      maybe: z.string().optional(),
      both: z.number().nullable().optional(),
      side: z.enum(['buy', 'sell']),
      kind: z.literal('stock'),
      flags: z.array(z.boolean()),
      nested: z.object({ a: z.number(), b: z.array(z.object({ c: z.string().nullable() })) }).nullable(),
      either: z.union([
        z.object({ type: z.literal('cash'), yen: z.number() }),
        z.object({ type: z.literal('stock'), code: z.string(), shares: z.number().int() }),
      ]),
      byCode: z.record(z.string(), z.object({ price: z.number(), at: z.string() })),
      byMarket: z.record(z.enum(['prime', 'standard']), z.number()),
      strict: z.object({ x: z.number() }).strict(),
      anything: z.unknown(),
      frozen: z.array(z.string()).readonly(),
    }),
  );

  it('answers the same JSON as zod for nullable, optional, enum, literal, union, record and array fields', () => {
    // zod refuses the values whose strict object carries an unnamed key: those are not compared
    expect(sameAsZod(kitchenSink, 500)).toBeGreaterThan(200);
  });

  it('drops the keys a schema does not name, as zod does', () => {
    const serialize = compiled(envelope(z.object({ id: z.number(), inner: z.object({ a: z.string() }) })));
    const json = serialize({
      code: 1,
      msg: 'ok',
      data: { id: 1, password_hash: 'x', inner: { a: 'y', secret: 'z' } },
      extra: true,
    });
    expect(json).toBe('{"code":1,"msg":"ok","data":{"id":1,"inner":{"a":"y"}}}');
  });

  it('refuses a response without a required field, as zod does', () => {
    const serialize = compiled(z.object({ id: z.number(), name: z.string() }));
    expect(() => serialize({ id: 1 })).toThrow(/name/);
  });

  it.each([
    ['a transform', z.object({ at: z.string().transform((s) => s.length) }), /\$\.at: pipe/],
    ['a default', z.object({ n: z.number().default(0) }), /\$\.n: default/],
    ['a trimmed string', z.object({ s: z.string().trim() }), /\$\.s: a check rewrites the value/],
    ['a date', z.object({ at: z.date() }), /\$\.at: date/],
    ['a bigint', z.object({ n: z.bigint() }), /\$\.n: bigint/],
    ['an object that keeps unknown keys', z.looseObject({ a: z.string() }), /keeps unknown keys/],
    ['a catchall', z.object({ a: z.string() }).catchall(z.number()), /keeps unknown keys/],
    ['a coerced number', z.object({ n: z.coerce.number() }), /\$\.n: coerced/],
    ['an optional array element', z.array(z.string().optional()), /optional outside/],
    ['a lazy schema', z.object({ tree: z.lazy(() => z.string()) }), /\$\.tree: lazy/],
    ['a codec', z.object({ n: z.codec(z.string(), z.number(), { decode: Number, encode: String }) }), /pipe/],
  ])('keeps zod for %s', (_name, schema, reason) => {
    const result = compileSerializer(schema);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });

  it('writes a nullable primitive as fast-json-stringify`s nullable, not as a union it must validate', () => {
    expect(toStringifySchema(z.object({ s: z.string().nullable() }))).toStrictEqual({
      type: 'object',
      properties: { s: { type: 'string', nullable: true } },
      required: ['s'],
    });
  });

  describe('checking (under tests)', () => {
    const schema = z.object({ id: z.number().int(), name: z.string() });
    const plans: SerializerPlan[] = [];
    const compiler = createResponseSerializerCompiler({ check: true, onPlan: (p) => plans.push(p) });
    const serialize = compiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });
    const unchecked = createResponseSerializerCompiler({ check: false })({
      schema,
      method: 'GET',
      url: '/x',
      httpStatus: '200',
    });

    it('rejects a response of the wrong type, which the compiled serializer alone would write', () => {
      expect(unchecked({ id: 1, name: 2 })).toBe('{"id":1,"name":"2"}');
      expect(() => serialize({ id: 1, name: 2 })).toThrow(/Response doesn't match the schema/);
      expect(() => serialize({ id: 1.5, name: 'a' })).toThrow(/Response doesn't match the schema/);
    });

    it('answers the compiled JSON and reports the plan', () => {
      expect(serialize({ id: 1, name: 'a', other: 1 })).toBe('{"id":1,"name":"a"}');
      expect(plans).toMatchObject([{ method: 'GET', url: '/x', status: '200', compiled: true }]);
    });
  });
});

describe("every route's answer", () => {
  let t: TestApp;
  const plans: SerializerPlan[] = [];
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, undefined, {
      onSerializerPlan: (plan) => plans.push(plan),
      logStream: { write: (line) => lines.push(line) },
      logLevel: 'debug',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is compiled on the hot routes', () => {
    const hot = [
      'GET /api/health 200',
      'GET /api/index/getUserInfo 200',
      'GET /api/market/list 200',
      'GET /api/market/stock 200',
      'GET /api/market/board 200',
      'POST /api/trade/placeOrder 200',
    ];
    const byRoute = new Map(plans.map((p) => [`${p.method} ${p.url} ${p.status}`, p]));
    for (const route of hot)
      expect({ route, compiled: byRoute.get(route)?.compiled }).toEqual({ route, compiled: true });
  });

  it('is compiled wherever the schema converts; the rest are listed with their reason', () => {
    const fallback = plans
      .filter((p) => !p.compiled)
      .map((p) => `${p.method} ${p.url} ${p.status}: ${p.reason ?? ''}`);
    // the routes left to zod, each for a reason the converter names (a change here is deliberate)
    expect(fallback).toMatchSnapshot();
    expect(plans.filter((p) => p.compiled).length).toBeGreaterThan(fallback.length);
  });

  it('is logged at debug when the app is ready: how many compiled, and each route left to zod with its reason', () => {
    const logged = lines
      .map((line) => JSON.parse(line) as { msg?: string; compiled?: number; fallback?: string[] })
      .find((line) => line.msg === 'response serializers');
    expect(logged?.compiled).toBe(plans.filter((p) => p.compiled).length);
    expect(logged?.fallback).toContain(
      'POST /api/passkeys/options 200: $.data.options: an object that keeps unknown keys',
    );
    expect(logged?.fallback).toHaveLength(plans.filter((p) => !p.compiled).length);
  });

  it('serialises as zod does, for values drawn from each compiled schema', () => {
    const seen = new Set<z.core.$ZodType>();
    let accepted = 0;
    for (const plan of plans) {
      if (!plan.compiled || seen.has(plan.schema)) continue;
      seen.add(plan.schema);
      accepted += sameAsZod(plan.schema, 20);
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(accepted).toBeGreaterThan(seen.size * 5);
  });
});
