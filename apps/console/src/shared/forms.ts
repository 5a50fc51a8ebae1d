import type { FormInstance } from 'antd';
import type { z } from 'zod';
import { fieldIssuesOf } from '@kabuto/client/api-error';
import { hasContractKey, i18n, tContract } from './i18n';
import { validateWithSchema } from './zod-form';

/**
 * Validates an antd form's values with a contract schema; puts translated messages on the fields and
 * answers null when invalid. `labels` names fields for the generic messages ("{{field}} is too small").
 */
export function checkForm<S extends z.ZodType>(
  form: FormInstance,
  schema: S,
  values: unknown,
  labels: Readonly<Record<string, string>> = {},
  /** where the schema's value sits in the form (e.g. ["channels"] for a list) */
  prefix: readonly (string | number)[] = [],
): z.output<S> | null {
  const result = validateWithSchema(schema, values, {
    translate: (key) => (hasContractKey(key) ? tContract(key) : undefined),
    generic: (key, field) => tContract(key, { field }),
    label: (path) => {
      const last = [...path].reverse().find((p): p is string => typeof p === 'string');
      const joined = path.join('.');
      return (
        labels[joined] ?? (last !== undefined ? labels[last] : undefined) ?? last ?? i18n.t('common.none')
      );
    },
  });
  if (result.ok) return result.value;
  form.setFields(result.fields.map((f) => ({ name: [...prefix, ...f.name], errors: f.errors })));
  return null;
}

/** Puts a server validation failure's field issues (already translated) on the form's fields. */
export function applyServerIssues(form: FormInstance, error: unknown): boolean {
  const issues = fieldIssuesOf(error);
  if (issues.length === 0) return false;
  form.setFields(
    issues.map((issue) => ({
      name: issue.field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      errors: [issue.message],
    })),
  );
  return true;
}
