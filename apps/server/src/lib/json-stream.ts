/**
 * A streaming JSON reader for documents too large to hold twice: bytes go in chunk by chunk (`write`), and
 * the arrays at chosen paths are handed over element by element (`element`) instead of being built, so a
 * record of a million applications is never a million objects at once, nor one string. Everything else is
 * built as `JSON.parse` would build it (same strings, same numbers, last duplicate key wins). It reads
 * strict JSON (RFC 8259) in UTF-8, with the same replacement of invalid sequences as Node's `utf8` decoding.
 */

/** The document is not JSON (or holds one value longer than `MAX_TOKEN_BYTES`): `offset` is the byte. */
export class JsonStreamError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at byte ${offset}`);
  }
}

export interface JsonStreamHandler {
  /**
   * Called when an array begins at `path` (the keys from the root, for arrays in the root object and in the
   * objects directly inside it): true to stream its elements to `element` rather than build it. A streamed
   * array is left out of its parent object.
   */
  stream(path: readonly string[]): boolean;
  /** One element of a streamed array, built (elements are meant to be small). */
  element(path: readonly string[], value: unknown): void;
}

/** The longest single string or number (bytes): longer is refused, so carrying one across chunks stays cheap. */
export const MAX_TOKEN_BYTES = 1 << 20;

const enum Expect {
  Value,
  /** after `[`: a value or `]` */
  ValueOrEnd,
  /** after `{`: a key or `}` */
  KeyOrEnd,
  Key,
  Colon,
  /** after a value inside a container: `,` or its closing bracket */
  CommaOrEnd,
  Done,
}

interface Frame {
  array: boolean;
  /** the object or array being built; null for a streamed array */
  value: Record<string, unknown> | unknown[] | null;
  /** the current key (objects) */
  key: string;
  /** the keys from the root to this container, or null below the levels handlers see */
  path: readonly string[] | null;
}

const KEY_CACHE_SLOTS = 256;
const KEY_CACHE_BYTES = 24;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function set(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  } else target[key] = value;
}

export class JsonStreamReader {
  private stack: Frame[] = [];
  private expect = Expect.Value;
  private root: unknown = undefined;
  /** bytes of an unfinished token from the previous chunk */
  private carry: Buffer | null = null;
  /** bytes consumed before the current buffer (for error offsets) */
  private consumed = 0;
  private readonly keys = new Array<string | undefined>(KEY_CACHE_SLOTS);

  constructor(private readonly handler: JsonStreamHandler) {}

  /** Reads the next bytes of the document. Throws a JsonStreamError on anything that is not JSON. */
  write(chunk: Uint8Array): void {
    let buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.carry) {
      buf = Buffer.concat([this.carry, buf]);
      this.carry = null;
    }
    const stop = this.scan(buf, false);
    if (stop < buf.length) {
      if (buf.length - stop > MAX_TOKEN_BYTES) throw this.error('a value too long', stop);
      this.carry = Buffer.from(buf.subarray(stop));
    }
    this.consumed += stop;
  }

  /** The end of the document: answers the root value (streamed arrays left out). */
  end(): unknown {
    const rest = this.carry ?? Buffer.alloc(0);
    this.carry = null;
    const stop = this.scan(rest, true);
    this.consumed += stop;
    if (this.expect !== Expect.Done) throw this.error('unexpected end', 0);
    return this.root;
  }

  /**
   * A short ASCII key, from a small cache: the same few keys come back once per element (a million times
   * `"id"`), and one string each, always the same, is cheaper to make and to store under.
   */
  private key(buf: Buffer, from: number, to: number): string {
    const size = to - from;
    let h = size;
    for (let k = from; k < to; k++) h = (Math.imul(h, 31) + (buf[k] ?? 0)) | 0;
    const slot = h & (KEY_CACHE_SLOTS - 1);
    const cached = this.keys[slot];
    if (cached !== undefined && cached.length === size) {
      let same = true;
      for (let k = 0; k < size && same; k++) same = cached.charCodeAt(k) === buf[from + k];
      if (same) return cached;
    }
    const text = buf.toString('latin1', from, to);
    this.keys[slot] = text;
    return text;
  }

  private error(message: string, at: number): JsonStreamError {
    return new JsonStreamError(message, this.consumed + at);
  }

  /** Scans tokens from buf; answers where it stopped (an unfinished token starts there, unless `last`). */
  private scan(buf: Buffer, last: boolean): number {
    const len = buf.length;
    let i = 0;
    while (i < len) {
      const c = buf[i] ?? 0;
      switch (c) {
        case 0x20:
        case 0x09:
        case 0x0a:
        case 0x0d:
          i++;
          break;
        case 0x7b: // {
          this.open(false, i);
          i++;
          break;
        case 0x5b: // [
          this.open(true, i);
          i++;
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.close(c === 0x5d, i);
          i++;
          break;
        case 0x3a: // :
          if (this.expect !== Expect.Colon) throw this.error('unexpected ":"', i);
          this.expect = Expect.Value;
          i++;
          break;
        case 0x2c: {
          // ,
          const top = this.stack[this.stack.length - 1];
          if (this.expect !== Expect.CommaOrEnd || !top) throw this.error('unexpected ","', i);
          this.expect = top.array ? Expect.Value : Expect.Key;
          i++;
          break;
        }
        case QUOTE: {
          let j = i + 1;
          let plain = true;
          while (j < len) {
            const b = buf[j] ?? 0;
            if (b === QUOTE) break;
            if (b === BACKSLASH) {
              plain = false;
              j += 2;
              continue;
            }
            if (b < 0x20) throw this.error('a control character in a string', j);
            if (b >= 0x80) plain = false;
            j++;
          }
          if (j >= len) {
            if (last) throw this.error('an unterminated string', i);
            return i;
          }
          const key = this.expect === Expect.Key || this.expect === Expect.KeyOrEnd;
          let text: string;
          if (plain && key && j - i - 1 <= KEY_CACHE_BYTES) text = this.key(buf, i + 1, j);
          else if (plain) text = buf.toString('latin1', i + 1, j);
          else {
            try {
              text = JSON.parse(buf.toString('utf8', i, j + 1)) as string;
            } catch {
              throw this.error('a bad escape in a string', i);
            }
          }
          if (key) {
            const top = this.stack[this.stack.length - 1];
            if (top) top.key = text;
            this.expect = Expect.Colon;
          } else this.value(text, i);
          i = j + 1;
          break;
        }
        case 0x74: // true
        case 0x66: // false
        case 0x6e: {
          // null
          const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
          if (i + word.length > len) {
            if (last) throw this.error('an unexpected end', i);
            return i;
          }
          if (buf.toString('latin1', i, i + word.length) !== word) throw this.error('an unknown word', i);
          this.value(c === 0x74 ? true : c === 0x66 ? false : null, i);
          i += word.length;
          break;
        }
        default: {
          if (c !== 0x2d && (c < 0x30 || c > 0x39)) throw this.error('an unexpected character', i);
          // a number: digits, and where it has them the sign, fraction and exponent
          let j = i;
          let integer = 0;
          let simple = true;
          while (j < len) {
            const b = buf[j] ?? 0;
            if (b >= 0x30 && b <= 0x39) {
              integer = integer * 10 + (b - 0x30);
            } else if (b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45) {
              simple = false;
            } else break;
            j++;
          }
          if (j >= len && !last) return i;
          let n: number;
          if (simple && j - i <= 15 && (c !== 0x30 || j - i === 1)) n = integer;
          else {
            const text = buf.toString('latin1', i, j);
            if (!JSON_NUMBER.test(text)) throw this.error('a malformed number', i);
            n = Number(text);
          }
          this.value(n, i);
          i = j;
        }
      }
    }
    return len;
  }

  private open(array: boolean, at: number): void {
    if (this.expect !== Expect.Value && this.expect !== Expect.ValueOrEnd) {
      throw this.error(array ? 'unexpected "["' : 'unexpected "{"', at);
    }
    const parent = this.stack[this.stack.length - 1];
    let path: readonly string[] | null = null;
    if (!parent) path = [];
    else if (!parent.array && parent.path !== null && this.stack.length <= 2) {
      path = [...parent.path, parent.key];
    }
    const streamed = array && path !== null && parent !== undefined && this.handler.stream(path);
    this.stack.push({ array, value: streamed ? null : array ? [] : {}, key: '', path });
    this.expect = array ? Expect.ValueOrEnd : Expect.KeyOrEnd;
  }

  private close(array: boolean, at: number): void {
    const top = this.stack[this.stack.length - 1];
    const ok =
      top !== undefined &&
      top.array === array &&
      (this.expect === Expect.CommaOrEnd || this.expect === (array ? Expect.ValueOrEnd : Expect.KeyOrEnd));
    if (!ok) throw this.error(array ? 'unexpected "]"' : 'unexpected "}"', at);
    this.stack.pop();
    if (top.value === null) {
      // a streamed array: its parent does not receive it
      this.expect = Expect.CommaOrEnd;
      return;
    }
    // the container was opened where a value was expected: it is that value
    this.expect = Expect.Value;
    this.value(top.value, at);
  }

  /** A complete value (primitive or closed container) in the current position. */
  private value(v: unknown, at: number): void {
    if (this.expect !== Expect.Value && this.expect !== Expect.ValueOrEnd) {
      throw this.error('an unexpected value', at);
    }
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.root = v;
      this.expect = Expect.Done;
      return;
    }
    if (top.array) {
      if (top.value === null) this.handler.element(top.path ?? [], v);
      else (top.value as unknown[]).push(v);
    } else set(top.value as Record<string, unknown>, top.key, v);
    this.expect = Expect.CommaOrEnd;
  }
}
