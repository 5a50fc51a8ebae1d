import type { z } from 'zod';

/** One antd Form field error: the field's name path and its messages. */
export interface FieldError {
  name: (string | number)[];
  errors: string[];
}

export interface ZodFormTexts {
  /** Translates a contract key such as "validation.reasonRequired", or undefined when there is none. */
  translate: (key: string) => string | undefined;
  /** The generic message for a zod issue code without a catalogue key ("validation.tooSmall", ...). */
  generic: (key: string, field: string) => string;
  /** The field's label for the generic messages. */
  label: (path: (string | number)[]) => string;
}

const GENERIC: Record<string, string> = {
  too_small: 'validation.tooSmall',
  too_big: 'validation.tooBig',
  invalid_format: 'validation.invalidFormat',
  invalid_type: 'validation.invalidType',
};

function valueAt(values: unknown, path: readonly (string | number)[]): unknown {
  let value = values;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * Validates form values with a contract schema and turns the issues into antd Form field errors, each
 * message translated: the schema's own catalogue key when it has one, a generic message naming the field
 * otherwise ("{{field}} is required" for an empty field). Answers the parsed value on success.
 */
export function validateWithSchema<S extends z.ZodType>(
  schema: S,
  values: unknown,
  texts: ZodFormTexts,
): { ok: true; value: z.output<S> } | { ok: false; fields: FieldError[] } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, value: result.data };
  const byField = new Map<string, FieldError>();
  for (const issue of result.error.issues) {
    const name = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const key = JSON.stringify(name);
    const generic =
      issue.code === 'invalid_type' && isEmpty(valueAt(values, name))
        ? 'validation.required'
        : (GENERIC[issue.code] ?? 'validation.invalidValue');
    const text = texts.translate(issue.message) ?? texts.generic(generic, texts.label(name));
    const entry = byField.get(key) ?? { name, errors: [] };
    if (!entry.errors.includes(text)) entry.errors.push(text);
    byField.set(key, entry);
  }
  return { ok: false, fields: [...byField.values()] };
}
