/**
 * The differences between two JSON values (an audit entry's before and after), as a flat list of paths.
 * Objects are compared key by key, arrays index by index; anything else by value.
 */
export type DiffKind = 'added' | 'removed' | 'changed';
export interface DiffLine {
  /** dotted path, array indexes in brackets: "windows[1].end"; "" for the whole value */
  path: string;
  kind: DiffKind;
  before: unknown;
  after: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

export function diffJson(before: unknown, after: unknown, path = ''): DiffLine[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined || (before === null && after !== null && path === '')) {
    return [{ path, kind: 'added', before: undefined, after }];
  }
  if (after === undefined || (after === null && before !== null && path === '')) {
    return [{ path, kind: 'removed', before, after: undefined }];
  }
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => diffJson(before[key], after[key], join(path, key)));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    const lines: DiffLine[] = [];
    for (let i = 0; i < length; i += 1) {
      lines.push(
        ...diffJson(
          i < before.length ? before[i] : undefined,
          i < after.length ? after[i] : undefined,
          join(path, i),
        ),
      );
    }
    return lines;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path, kind: 'changed', before, after }];
}

/** Pretty JSON for display; `undefined` and `null` both show as null. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2);
}
