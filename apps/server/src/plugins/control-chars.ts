import type { FastifyInstance } from 'fastify';
import { ERRORS, translate, type FieldIssue } from '@kabuto/contract';

/**
 * C0 control characters and DEL, except tab, line feed and carriage return (multi-line text keeps them).
 * PostgreSQL cannot store U+0000 in text at all, and none of the others belongs in a name, a code or a note.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this expression's whole purpose
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The dotted path of the first string under `value` that holds a control character, or undefined. */
export function controlCharacterPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return CONTROL.test(value) ? path : undefined;
  if (depth > 32 || typeof value !== 'object' || value === null) return undefined;
  if (Buffer.isBuffer(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (CONTROL.test(key)) return `${path}.${key.replace(CONTROL, '?')}`;
    const found = controlCharacterPath(child, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether any string under `value` (a key or a value, as deep as controlCharacterPath looks) holds a control
 * character. What every request pays: it builds no path and no entry arrays, and an empty query, no path
 * parameters or no body cost a type check each; the path is looked for only once this says there is one.
 */
export function hasControlCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return CONTROL.test(value);
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  if (Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) {
    for (const child of value) if (hasControlCharacter(child, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    if (CONTROL.test(key) || hasControlCharacter(record[key], depth + 1)) return true;
  }
  return false;
}

/**
 * Refuses, before any route's own validation, a query, path parameter or JSON body that carries a control
 * character anywhere: 400 in the envelope naming the field, instead of a database error (a 500) later.
 */
export function refuseControlCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, reply, done) => {
    const { query, params, body } = request;
    if (!hasControlCharacter(query) && !hasControlCharacter(params) && !hasControlCharacter(body)) {
      done();
      return;
    }
    const field =
      controlCharacterPath(query, 'query') ??
      controlCharacterPath(params, 'params') ??
      controlCharacterPath(body, 'body') ??
      'body';
    const message = translate(request.locale, 'validation.controlCharacter');
    const issue: FieldIssue = {
      field: field.replace(/^(query|params|body)\./, ''),
      rule: 'control_character',
      message,
    };
    // answered here: the route's handler does not run (a callback-style hook that sends calls no done)
    void reply
      .status(ERRORS.VALIDATION.http)
      .send({ code: ERRORS.VALIDATION.code, msg: message, data: { issues: [issue] } });
  });
}
