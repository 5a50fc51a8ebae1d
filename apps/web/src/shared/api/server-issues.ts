import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { fieldIssuesOf } from './api-error';

/** Puts a validation failure's field issues (already translated by the server) on the form's fields. */
export function applyServerIssues<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): void {
  for (const issue of fieldIssuesOf(error)) {
    const field = fields.find((f) => f === issue.field);
    if (field !== undefined) setError(field, { type: 'server', message: issue.message });
  }
}
