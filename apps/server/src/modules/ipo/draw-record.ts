/**
 * Reads a published draw record (`GET /api/ipo/offerings/{id}/draw`, with or without its `{code, msg, data}`
 * envelope, or the same record saved to a file) as a stream, straight into columns: the applications, the
 * allocations and the drawn order are never a list of objects, nor is the record ever one string, so
 * `npm run verify-draw` checks a draw of a million applications in a bounded amount of memory
 * (bench/README.md). The verification itself is `verifyColumns` (draw.ts), the same code as `verifyDraw`.
 */
import { JsonStreamReader } from '../../lib/json-stream.js';
import { AllocationColumns, ApplicationColumns, NumberColumn, type ColumnRecord } from './draw.js';

/** The lists of one level of the document (the root, or the envelope's `data`), when they came. */
interface Lists {
  applications: ApplicationColumns | null;
  allocations: AllocationColumns | null;
  order: NumberColumn | null;
}

/** A record read from a stream: the envelope's code and message when it had one, and the record. */
export interface StreamedDrawRecord {
  code: unknown;
  msg: unknown;
  /** null when the document holds no record with its three lists */
  record: (ColumnRecord & { seed: unknown }) | null;
}

/**
 * Reads a record from a stream of bytes (a file's, or a response's body). Throws a `JsonStreamError` when
 * the bytes are not JSON.
 */
export async function readDrawRecord(chunks: AsyncIterable<Uint8Array>): Promise<StreamedDrawRecord> {
  const levels: Record<'' | 'data', Lists> = {
    '': { applications: null, allocations: null, order: null },
    data: { applications: null, allocations: null, order: null },
  };
  const place = (path: readonly string[]): [Lists, string] | null => {
    const [first, second] = path;
    const level = path.length === 1 ? '' : path.length === 2 && first === 'data' ? 'data' : null;
    const key = path.length === 1 ? first : second;
    if (level === null || (key !== 'applications' && key !== 'allocations' && key !== 'order')) return null;
    return [levels[level], key];
  };
  const reader = new JsonStreamReader({
    stream(path) {
      const at = place(path);
      if (!at) return false;
      const [lists, key] = at;
      // a key that comes twice: the last one counts, as with JSON.parse
      if (key === 'applications') lists.applications = new ApplicationColumns();
      else if (key === 'allocations') lists.allocations = new AllocationColumns();
      else lists.order = new NumberColumn();
      return true;
    },
    element(path, value) {
      const at = place(path);
      if (!at) return;
      const [lists, key] = at;
      if (key === 'applications') lists.applications?.push(value);
      else if (key === 'allocations') lists.allocations?.push(value);
      else lists.order?.push(value);
    },
  });
  for await (const chunk of chunks) reader.write(chunk);
  const root = reader.end();
  const top = typeof root === 'object' && root !== null && !Array.isArray(root) ? root : {};
  const { code, msg, data } = top as { code?: unknown; msg?: unknown; data?: unknown };
  // the envelope's data when there is one (as `raw.data ?? raw`)
  const enveloped = typeof data === 'object' && data !== null && !Array.isArray(data);
  const fields = (enveloped ? data : top) as Record<string, unknown>;
  const lists = levels[enveloped ? 'data' : ''];
  const { applications, allocations, order } = lists;
  if (!applications || !allocations || !order) return { code, msg, record: null };
  return {
    code,
    msg,
    record: {
      seed: fields['seed'],
      seed_hash: fields['seed_hash'],
      list_hash: fields['list_hash'],
      offering_units: fields['offering_units'],
      policy: fields['policy'],
      applications,
      allocations,
      order,
    },
  };
}
