import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { InvalidSchemaError, ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response serialisation compiled from the routes' zod schemas (ADR 0042).
 *
 * fastify-type-provider-zod's serializer runs zod's encode on every answer and then JSON.stringify. For a
 * response schema made only of plain data (objects, arrays, strings, numbers, booleans, null, literals,
 * enums, nullable, optional properties, unions, records), zod's encode changes nothing but drop the keys the
 * schema does not name, which fast-json-stringify does too: such a schema is turned into a JSON Schema here
 * and compiled once, when the route is registered. A schema with anything whose output is not the value
 * itself (a transform, a pipe, a codec, a default, a coercion, an overwrite such as `.trim()`, a date, a
 * bigint, a lazy or custom type, an object that keeps unknown keys) keeps zod's serializer.
 *
 * What the compiled serializer does not do is check types: a handler that returns a number where the schema
 * says string is not caught in production (zod would answer 500). With `check` on (the default under tests,
 * NODE_ENV=test), every answer also goes through zod's encode as before, and the compiled JSON must equal
 * zod's, so the whole test suite keeps checking every response against its schema and the compiled
 * serializer against zod's.
 */

/** A JSON Schema of the subset fast-json-stringify is given (no validation keywords: it does not validate). */
export interface StringifySchema {
  type?: 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';
  nullable?: true;
  const?: string | number | boolean | null;
  enum?: (string | number | boolean | null)[];
  properties?: Record<string, StringifySchema>;
  required?: string[];
  additionalProperties?: StringifySchema;
  items?: StringifySchema;
  anyOf?: StringifySchema[];
}

/** Why a schema cannot be compiled: thrown while converting, caught by the compiler (fallback). */
export class NotCompilable extends Error {}

type ZodNode = z.core.$ZodType;

/** A schema's definition, narrowed by its `type`. */
function defOf(schema: ZodNode): z.core.$ZodTypes['_zod']['def'] {
  return (schema as z.core.$ZodTypes)._zod.def;
}

/** A check that rewrites the value (`.trim()`, `.toLowerCase()`, `.overwrite()`): zod's output differs. */
function rejectOverwrites(schema: ZodNode, path: string): void {
  const checks = schema._zod.def.checks ?? [];
  for (const check of checks) {
    if (check._zod.def.check === 'overwrite') throw new NotCompilable(`${path}: a check rewrites the value`);
  }
}

function typeOfValue(value: unknown, path: string): 'string' | 'number' | 'boolean' | 'null' {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number' && Number.isFinite(value)) return 'number';
  throw new NotCompilable(`${path}: a literal of type ${typeof value}`);
}

function withNull(schema: StringifySchema): StringifySchema {
  if (schema.anyOf) return { anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.type === undefined || schema.type === 'null') return schema; // already takes null
  return { ...schema, nullable: true };
}

/**
 * The JSON Schema fast-json-stringify compiles for a zod schema, or NotCompilable with the reason. `inProperty`
 * is set for an object's property, the only place an optional value may be (an absent key).
 */
export function toStringifySchema(schema: ZodNode, path = '$', inProperty = false): StringifySchema {
  const def = defOf(schema);
  rejectOverwrites(schema, path);
  if ('coerce' in def && def.coerce === true) throw new NotCompilable(`${path}: coerced`);
  switch (def.type) {
    case 'string':
      return { type: 'string' };
    case 'number':
      // `.int()` too: an integer's JSON is the same written as a number
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'unknown':
    case 'any':
      // no type: fast-json-stringify writes it with JSON.stringify, as zod's serializer does
      return {};
    case 'literal': {
      const values = def.values;
      const types = new Set(values.map((v) => typeOfValue(v, path)));
      const [only] = types;
      if (types.size !== 1 || only === undefined)
        throw new NotCompilable(`${path}: literals of several types`);
      const type = only;
      return values.length === 1
        ? { type, const: values[0] as string | number | boolean | null }
        : { type, enum: values as (string | number | boolean | null)[] };
    }
    case 'enum': {
      const values = Object.values(def.entries);
      const types = new Set(values.map((v) => typeOfValue(v, path)));
      const [only] = types;
      if (types.size !== 1 || only === undefined)
        throw new NotCompilable(`${path}: an enum of several types`);
      return { type: only, enum: values };
    }
    case 'nullable':
      return withNull(toStringifySchema(def.innerType, path, inProperty));
    case 'optional':
      if (!inProperty) throw new NotCompilable(`${path}: optional outside an object's property`);
      return toStringifySchema(def.innerType, path, inProperty);
    case 'readonly':
      return toStringifySchema(def.innerType, path, inProperty);
    case 'array':
      return { type: 'array', items: toStringifySchema(def.element, `${path}[]`) };
    case 'object': {
      const objectDef = def;
      const catchall = objectDef.catchall ? defOf(objectDef.catchall).type : undefined;
      // strip (no catchall) and strict (never) both answer only the named keys; a catchall keeps others
      if (catchall !== undefined && catchall !== 'never')
        throw new NotCompilable(`${path}: an object that keeps unknown keys`);
      const properties: Record<string, StringifySchema> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(objectDef.shape)) {
        properties[key] = toStringifySchema(value, `${path}.${key}`, true);
        if (value._zod.optout !== 'optional') required.push(key);
      }
      return { type: 'object', properties, required };
    }
    case 'record': {
      const recordDef = def;
      const keyType = defOf(recordDef.keyType).type;
      if (keyType !== 'string' && keyType !== 'enum' && keyType !== 'literal')
        throw new NotCompilable(`${path}: a record keyed by ${keyType}`);
      rejectOverwrites(recordDef.keyType, `${path}{key}`);
      return { type: 'object', additionalProperties: toStringifySchema(recordDef.valueType, `${path}{}`) };
    }
    case 'union': {
      const options = def.options;
      return { anyOf: options.map((option, i) => toStringifySchema(option, `${path}|${String(i)}`)) };
    }
    default:
      throw new NotCompilable(`${path}: ${def.type}`);
  }
}

/** What became of one route's response schema. */
export interface SerializerPlan {
  method: string;
  url: string;
  status: string;
  /** the route's response schema for that status */
  schema: z.core.$ZodType;
  compiled: boolean;
  /** why it was not compiled */
  reason?: string;
}

export interface ResponseSerializerOptions {
  /** also encode with zod (rejecting a response that does not match) and compare the JSON: on under tests */
  check: boolean;
  /** told of each route's plan as it is registered */
  onPlan?: (plan: SerializerPlan) => void;
}

/** Whether to check every answer against zod as well, by default: under tests only. */
export function checkResponsesByDefault(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['NODE_ENV'] === 'test' || env['VITEST'] !== undefined;
}

function zodSerializer(schema: z.core.$ZodType, method: string, url: string): (data: unknown) => string {
  return (data) => {
    const result = z.safeEncode(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

/**
 * Compiles a serializer for one zod schema, or says why not. Exported for the equivalence tests; the
 * compiler below is what the app uses.
 */
export function compileSerializer(
  schema: z.core.$ZodType,
): { ok: true; serialize: (data: unknown) => string } | { ok: false; reason: string } {
  let jsonSchema: StringifySchema;
  try {
    jsonSchema = toStringifySchema(schema);
  } catch (error) {
    if (error instanceof NotCompilable) return { ok: false, reason: error.message };
    throw error;
  }
  const serialize: (data: unknown) => string = fastJson(jsonSchema as fastJson.Schema);
  return { ok: true, serialize };
}

/** A route's response schema as fastify-type-provider-zod takes it: the zod schema, or `{properties}` of one. */
function resolveSchema(schema: unknown): z.core.$ZodType {
  if (schema instanceof z.core.$ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties instanceof z.core.$ZodType) return properties;
  throw new InvalidSchemaError(JSON.stringify(schema));
}

/** Fastify's serializer compiler: compiled where the schema allows, zod's encode and JSON.stringify otherwise. */
export function createResponseSerializerCompiler(
  options: ResponseSerializerOptions,
): FastifySerializerCompiler<unknown> {
  // one compilation per schema: a GET route's HEAD twin, and routes sharing an answer, reuse it
  const compilations = new WeakMap<z.core.$ZodType, ReturnType<typeof compileSerializer>>();
  return ({ schema: routeSchema, method, url, httpStatus }) => {
    const schema = resolveSchema(routeSchema);
    const fallback = zodSerializer(schema, method, url);
    const compiled = compilations.get(schema) ?? compileSerializer(schema);
    compilations.set(schema, compiled);
    options.onPlan?.({
      method,
      url,
      status: String(httpStatus),
      schema,
      compiled: compiled.ok,
      ...(compiled.ok ? {} : { reason: compiled.reason }),
    });
    if (!compiled.ok) return fallback;
    const serialize = compiled.serialize;
    if (!options.check) return serialize;
    return (data) => {
      const expected = fallback(data); // throws as before for a response that does not match
      const json = serialize(data);
      if (json !== expected && !isDeepStrictEqual(JSON.parse(json), JSON.parse(expected)))
        throw new Error(
          `compiled serializer of ${method} ${url} differs from zod's: ${json} instead of ${expected}`,
        );
      return json;
    };
  };
}
