import { crc32 } from 'node:zlib';
import { UPLOAD_MAX_BYTES, type UPLOAD_CONTENT_TYPES } from '@kabuto/contract';

/**
 * Photos by their content, never by their name or declared type: JPEG, PNG, WebP and HEIC. Each format's
 * structure is walked to the end (a cut-off transfer is "truncated", a broken structure "corrupt"), and
 * the metadata a phone writes (EXIF with GPS position, camera and dates; XMP; text comments) is removed:
 *
 * - JPEG: APP1 (EXIF, XMP), APP3-APP13, APP15 and comments are dropped; JFIF (APP0), the ICC colour
 *   profile (APP2) and Adobe's colour transform (APP14) stay, as they change how the pixels look.
 *   Bytes after the end-of-image marker are dropped.
 * - PNG: every chunk's CRC is checked; only the chunks that draw the image are kept (text, eXIf, tIME
 *   and unknown chunks go).
 * - WebP: the EXIF and XMP chunks go and the VP8X flags that announce them are cleared.
 * - HEIC: the EXIF and XMP items' bytes are overwritten with zeros in place, so every offset in the
 *   file stays valid.
 *
 * The EXIF orientation goes with the rest: a reviewer may see a phone photo on its side, which is the
 * price of not keeping any EXIF at all. Nothing here throws: bad input is a refusal.
 */

export type ImageType = (typeof UPLOAD_CONTENT_TYPES)[number];
export type ImageRefusal = 'empty' | 'too_large' | 'unsupported_type' | 'truncated' | 'corrupt';
export type Inspection =
  { ok: true; type: ImageType; bytes: Uint8Array } | { ok: false; reason: ImageRefusal };

class Refusal extends Error {
  constructor(readonly reason: 'truncated' | 'corrupt') {
    super(reason);
  }
}
const truncated = () => new Refusal('truncated');
const corrupt = () => new Refusal('corrupt');

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);

function ascii(bytes: Uint8Array, at: number, length = 4): string {
  let s = '';
  for (let i = at; i < at + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i] ?? 0);
  return s;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The image type the bytes start like, or undefined. Looks at the first bytes only. */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0) === 'RIFF' && ascii(bytes, 8) === 'WEBP') return 'image/webp';
  if (bytes.length >= 16 && ascii(bytes, 4) === 'ftyp') {
    const size = view(bytes).getUint32(0);
    const end = Math.min(size, bytes.length);
    if (HEIC_BRANDS.has(ascii(bytes, 8))) return 'image/heic';
    for (let at = 16; at + 4 <= end; at += 4) if (HEIC_BRANDS.has(ascii(bytes, at))) return 'image/heic';
  }
  return undefined;
}

/** Checks the bytes and returns a copy without metadata, or why they are refused. Never throws. */
export function inspectAndStrip(bytes: Uint8Array): Inspection {
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  if (bytes.length > UPLOAD_MAX_BYTES) return { ok: false, reason: 'too_large' };
  const type = sniffImage(bytes);
  if (!type) return { ok: false, reason: 'unsupported_type' };
  try {
    const stripped =
      type === 'image/jpeg'
        ? stripJpeg(bytes)
        : type === 'image/png'
          ? stripPng(bytes)
          : type === 'image/webp'
            ? stripWebp(bytes)
            : stripHeic(bytes);
    return { ok: true, type, bytes: stripped };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.reason };
    return { ok: false, reason: 'corrupt' };
  }
}

// ---------------------------------------------------------------- JPEG

/** APPn markers kept: JFIF (APP0), ICC profile (APP2), Adobe (APP14). */
const JPEG_KEPT_APP = new Set([0xe0, 0xe2, 0xee]);

function stripJpeg(bytes: Uint8Array): Uint8Array {
  const out: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  let frame = false;
  for (;;) {
    if (at >= bytes.length) throw truncated();
    if (bytes[at] !== 0xff) throw corrupt();
    while (bytes[at] === 0xff) at++; // fill bytes
    if (at >= bytes.length) throw truncated();
    const marker = bytes[at] ?? 0;
    at++;
    if (marker === 0xd9 || marker === 0xd8 || marker === 0x00) throw corrupt(); // no image data before the end
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // markers without a length
    if (at + 2 > bytes.length) throw truncated();
    const length = ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
    if (length < 2) throw corrupt();
    const end = at + length;
    if (end > bytes.length) throw truncated();
    const segment = bytes.subarray(at - 2, end);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      frame = true;
    }
    if (marker === 0xda) {
      // Start of scan: the entropy-coded data runs to the end-of-image marker (FF D9), the last one.
      if (!frame) throw corrupt();
      let eoi = -1;
      for (let i = bytes.length - 2; i >= end; i--) {
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) {
          eoi = i;
          break;
        }
      }
      if (eoi < 0) throw truncated();
      out.push(bytes.subarray(at - 2, eoi + 2));
      return concat(out);
    }
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const dropped = (isApp && !JPEG_KEPT_APP.has(marker)) || marker === 0xfe;
    if (!dropped) out.push(segment);
    at = end;
  }
}

// ---------------------------------------------------------------- PNG

/** Chunks that draw the image (including APNG animation); everything else is metadata and goes. */
const PNG_KEPT = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'bKGD',
  'pHYs',
  'acTL',
  'fcTL',
  'fdAT',
]);

function stripPng(bytes: Uint8Array): Uint8Array {
  const data = view(bytes);
  const out: Uint8Array[] = [bytes.subarray(0, 8)];
  let at = 8;
  let first = true;
  let sawData = false;
  for (;;) {
    if (at + 8 > bytes.length) throw truncated();
    const length = data.getUint32(at);
    if (length > 0x7fffffff) throw corrupt();
    const type = ascii(bytes, at + 4);
    if (!/^[A-Za-z]{4}$/.test(type)) throw corrupt();
    const end = at + 12 + length;
    if (end > bytes.length) throw truncated();
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== data.getUint32(at + 8 + length)) throw corrupt();
    if (first && (type !== 'IHDR' || length !== 13)) throw corrupt();
    first = false;
    if (type === 'IDAT') sawData = true;
    if (PNG_KEPT.has(type)) out.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') {
      if (!sawData) throw corrupt();
      return concat(out);
    }
  }
}

// ---------------------------------------------------------------- WebP

function stripWebp(bytes: Uint8Array): Uint8Array {
  const data = view(bytes);
  const riffEnd = 8 + data.getUint32(4, true);
  if (riffEnd > bytes.length) throw truncated();
  const chunks: Uint8Array[] = [];
  let at = 12;
  let image = false;
  while (at < riffEnd) {
    if (at + 8 > riffEnd) throw truncated();
    const fourcc = ascii(bytes, at);
    const size = data.getUint32(at + 4, true);
    const end = at + 8 + size + (size % 2);
    if (at + 8 + size > riffEnd) throw truncated();
    if (fourcc === 'VP8 ' || fourcc === 'VP8L' || fourcc === 'ANMF') image = true;
    if (fourcc === 'VP8X') {
      if (size < 10) throw corrupt();
      const copy = Uint8Array.from(bytes.subarray(at, Math.min(end, riffEnd)));
      copy[8] = (copy[8] ?? 0) & ~0x0c; // clear the EXIF (0x08) and XMP (0x04) flags
      chunks.push(copy);
    } else if (fourcc !== 'EXIF' && fourcc !== 'XMP ') {
      chunks.push(bytes.subarray(at, Math.min(end, riffEnd)));
    }
    at = end;
  }
  if (!image) throw corrupt();
  const body = concat(chunks);
  const header = new Uint8Array(12);
  header.set(bytes.subarray(0, 12));
  view(header).setUint32(4, body.length + 4, true);
  return concat([header, body]);
}

// ---------------------------------------------------------------- HEIC (ISO base media file format)

interface Box {
  type: string;
  /** where the box's content starts (after its header) */
  start: number;
  end: number;
}

function boxes(bytes: Uint8Array, from: number, to: number): Box[] {
  const data = view(bytes);
  const found: Box[] = [];
  let at = from;
  while (at < to) {
    if (at + 8 > to) throw truncated();
    let size = data.getUint32(at);
    const type = ascii(bytes, at + 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) throw truncated();
      const large = data.getBigUint64(at + 8);
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt();
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header) throw corrupt();
    if (at + size > to) throw truncated();
    found.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return found;
}

/** Reads an unsigned big-endian integer of 0, 4 or 8 bytes. */
function uint(data: DataView, at: number, size: number): number {
  if (size === 0) return 0;
  if (at + size > data.byteLength) throw truncated();
  if (size === 4) return data.getUint32(at);
  if (size === 8) {
    const value = data.getBigUint64(at);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt();
    return Number(value);
  }
  throw corrupt();
}

function stripHeic(bytes: Uint8Array): Uint8Array {
  const top = boxes(bytes, 0, bytes.length);
  if (top[0]?.type !== 'ftyp') throw corrupt();
  const meta = top.find((b) => b.type === 'meta');
  if (!meta || !top.some((b) => b.type === 'mdat')) throw corrupt();
  const data = view(bytes);
  // meta is a full box: 4 bytes of version and flags before its children
  const children = boxes(bytes, meta.start + 4, meta.end);
  const hidden = metadataItems(
    bytes,
    children.find((b) => b.type === 'iinf'),
  );
  const copy = Uint8Array.from(bytes);
  if (hidden.size === 0) return copy;
  const iloc = children.find((b) => b.type === 'iloc');
  if (!iloc) throw corrupt();
  const idat = children.find((b) => b.type === 'idat');
  for (const extent of itemExtents(data, iloc, hidden)) {
    const base = extent.method === 1 ? (idat?.start ?? -1) : 0;
    if (extent.method > 1 || base < 0) continue;
    const from = base + extent.offset;
    const to = extent.length === 0 ? bytes.length : from + extent.length;
    if (to > bytes.length) throw truncated();
    copy.fill(0, from, to);
  }
  return copy;
}

/** The ids of the items that hold metadata: EXIF, and XMP (a `mime` item). */
function metadataItems(bytes: Uint8Array, iinf: Box | undefined): Set<number> {
  const ids = new Set<number>();
  if (!iinf) return ids;
  const data = view(bytes);
  const version = bytes[iinf.start] ?? 0;
  const countSize = version === 0 ? 2 : 4;
  const first = iinf.start + 4 + countSize;
  for (const infe of boxes(bytes, first, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const infeVersion = bytes[infe.start] ?? 0;
    if (infeVersion < 2) continue; // versions 0 and 1 carry no item type
    const idSize = infeVersion === 2 ? 2 : 4;
    const at = infe.start + 4;
    if (at + idSize + 6 > infe.end) throw corrupt();
    const id = idSize === 2 ? data.getUint16(at) : data.getUint32(at);
    const itemType = ascii(bytes, at + idSize + 2);
    if (itemType === 'Exif' || itemType === 'mime') ids.add(id);
  }
  return ids;
}

interface Extent {
  method: number;
  offset: number;
  length: number;
}

/** The byte ranges of the given items, from the item location box. */
function itemExtents(data: DataView, iloc: Box, wanted: Set<number>): Extent[] {
  const version = data.getUint8(iloc.start);
  let at = iloc.start + 4;
  const sizes = data.getUint16(at);
  at += 2;
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 0xf;
  const baseSize = (sizes >> 4) & 0xf;
  const indexSize = version === 1 || version === 2 ? sizes & 0xf : 0;
  const count = version < 2 ? data.getUint16(at) : data.getUint32(at);
  at += version < 2 ? 2 : 4;
  const extents: Extent[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 8 > iloc.end) throw corrupt();
    const id = version < 2 ? data.getUint16(at) : data.getUint32(at);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version === 1 || version === 2) {
      method = data.getUint16(at) & 0xf;
      at += 2;
    }
    at += 2; // data reference index
    const base = uint(data, at, baseSize);
    at += baseSize;
    const extentCount = data.getUint16(at);
    at += 2;
    for (let e = 0; e < extentCount; e++) {
      at += indexSize;
      const offset = uint(data, at, offsetSize);
      at += offsetSize;
      const length = uint(data, at, lengthSize);
      at += lengthSize;
      if (at > iloc.end) throw corrupt();
      if (wanted.has(id)) extents.push({ method, offset: base + offset, length });
    }
  }
  return extents;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
