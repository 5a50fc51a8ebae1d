import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, lookup, translate, type ErrorName, type FieldIssue, type Locale } from '@kabuto/contract';
import { AppError } from '../lib/app-error.js';

/**
 * The one error handler: every failure leaves as the envelope {code, msg, data} with a message in the
 * request's language. Validation failures name each field and rule. A 5xx never carries internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const locale = request.locale;
    if (error instanceof AppError) {
      // a throttled sign-in says when to come back in the standard header too (ADR 0030)
      const retryAfter = (error.data as { retry_after_seconds?: unknown } | null)?.retry_after_seconds;
      if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
      return sendFailure(
        reply,
        error.errorName,
        translate(locale, `errors.${error.errorName}`, error.params),
        error.data,
      );
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => toFieldIssue(locale, v, error.validationContext));
      return sendFailure(reply, 'VALIDATION', issues[0]?.message ?? translate(locale, 'errors.VALIDATION'), {
        issues,
      });
    }
    const known = classifyFrameworkError(error);
    if (known) {
      const msg = known.messageKey
        ? translate(locale, known.messageKey)
        : translate(locale, `errors.${known.name}`);
      const data =
        known.name === 'VALIDATION'
          ? { issues: [{ field: 'body', rule: known.rule ?? 'json', message: msg } satisfies FieldIssue] }
          : null;
      return sendFailure(reply, known.name, msg, data);
    }
    if (isDatabaseUnavailable(error)) {
      // Not a bug: the database is down, restarting or slower than its timeouts (ADR 0032). The client is told
      // so, and when to try again; a change is one transaction (committed whole or not at all), and the money
      // routes take an idempotency key, so a retry cannot do it twice.
      request.log.warn(
        { err: { message: error.message, code: databaseErrorCode(error) } },
        'database unavailable',
      );
      void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendFailure(
        reply,
        'DATABASE_UNAVAILABLE',
        translate(locale, 'errors.DATABASE_UNAVAILABLE'),
        null,
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendFailure(reply, 'INTERNAL', translate(locale, 'errors.INTERNAL'), null);
  });

  app.setNotFoundHandler((request, reply) =>
    sendFailure(reply, 'NOT_FOUND', translate(request.locale, 'errors.NOT_FOUND'), null),
  );
}

function sendFailure(reply: FastifyReply, name: ErrorName, msg: string, data: unknown): FastifyReply {
  const { code, http } = ERRORS[name];
  return reply.status(http).send({ code, msg, data });
}

/** The SQLSTATE of a database error, found on the error or on the cause a query builder wrapped it in. */
function databaseErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a 503 for an unreachable database asks the client to wait before it tries again, in seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket-level failures of the connection to the database. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** What node-postgres says when it has no connection to give (its errors carry no code). */
const DRIVER_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /connection error and is not queryable/i,
  /not queryable/i,
  /connect ECONNREFUSED/i,
];

/**
 * Whether an error means the database cannot be reached or cannot work now, rather than that the request or
 * the code is wrong: a network failure, node-postgres giving up on a connection, a SQLSTATE of class 08
 * (connection exception), 57P01-57P03 (the server shutting down, crashed, or still starting), 53300 (too many
 * connections) or 57014 (statement_timeout cancelled the statement). Query builders wrap the driver's error:
 * the causes are walked.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300', '57014'].includes(code))
        return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((m) => m.test(message))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

interface Known {
  name: ErrorName;
  messageKey?: string;
  /** the rule a validation failure names (default: json) */
  rule?: string;
}

/** Errors raised by Fastify and its plugins before a handler runs; anything else is a 500. */
function classifyFrameworkError(error: FastifyError): Known | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { name: 'VALIDATION', messageKey: 'validation.invalidJson' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return { name: 'PAYLOAD_TOO_LARGE' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { name: 'UNSUPPORTED_MEDIA_TYPE' };
    default:
      break;
  }
  if (error instanceof SyntaxError) return { name: 'VALIDATION', messageKey: 'validation.invalidJson' };
  // A backstop behind the control-character check (plugins/control-chars.ts): text the database cannot store
  // (22021 invalid byte sequence, 22P05 untranslatable character) is the request's fault, not the server's.
  const sqlState = databaseErrorCode(error);
  if (sqlState === '22021' || sqlState === '22P05') {
    return { name: 'VALIDATION', messageKey: 'validation.controlCharacter', rule: 'control_character' };
  }
  const status = error.statusCode ?? 500;
  if (status === 429) return { name: 'RATE_LIMITED' };
  if (status === 413) return { name: 'PAYLOAD_TOO_LARGE' };
  if (status === 415) return { name: 'UNSUPPORTED_MEDIA_TYPE' };
  if (status === 405) return { name: 'METHOD_NOT_ALLOWED' };
  if (status === 404) return { name: 'NOT_FOUND' };
  if (status >= 400 && status < 500) return { name: 'VALIDATION' };
  return null;
}

interface ValidationEntry {
  keyword: string;
  instancePath: string;
  message?: string | undefined;
  params: Record<string, unknown>;
}

const GENERIC_BY_CODE: Record<string, string> = {
  invalid_type: 'validation.invalidType',
  too_small: 'validation.tooSmall',
  too_big: 'validation.tooBig',
  invalid_format: 'validation.invalidFormat',
  not_multiple_of: 'validation.invalidValue',
  invalid_value: 'validation.invalidValue',
  invalid_union: 'validation.invalidValue',
  invalid_key: 'validation.invalidValue',
  invalid_element: 'validation.invalidValue',
  unrecognized_keys: 'validation.unknownField',
  custom: 'validation.invalidValue',
};

/** Turns one zod issue into {field, rule, message}; schema messages are catalogue keys. */
export function toFieldIssue(
  locale: Locale,
  entry: ValidationEntry,
  context: string | undefined,
): FieldIssue {
  const path = entry.instancePath.split('/').filter(Boolean);
  const unknownKeys =
    entry.keyword === 'unrecognized_keys' ? (entry.params['keys'] as string[] | undefined) : undefined;
  const fieldPath = unknownKeys?.[0] !== undefined ? [...path, unknownKeys[0]] : path;
  const field = fieldPath.length > 0 ? fieldPath.join('.') : (context ?? 'body');
  const rule = typeof entry.params['rule'] === 'string' ? entry.params['rule'] : entry.keyword;
  const schemaKey = entry.message;
  // a catalogue key: `validation.*`, or a feature's own section's (`loans.validation.*`, issue 18)
  if (
    schemaKey !== undefined &&
    /^(\w+\.)?validation\./.test(schemaKey) &&
    lookup('en', schemaKey) !== undefined
  ) {
    return { field, rule, message: translate(locale, schemaKey) };
  }
  const missing = entry.keyword === 'invalid_type' && / undefined$/.test(entry.message ?? '');
  const key = missing ? 'validation.required' : (GENERIC_BY_CODE[entry.keyword] ?? 'validation.invalidValue');
  const last = fieldPath.at(-1) ?? field;
  const label = lookup(locale, `fields.${last}`) ?? field;
  return { field, rule, message: translate(locale, key, { field: label }) };
}

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

export type { FastifyRequest };
