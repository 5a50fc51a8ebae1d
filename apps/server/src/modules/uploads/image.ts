import sharp from 'sharp';
import { UPLOAD_MAX_BYTES, type UPLOAD_CONTENT_TYPES } from '@kabuto/contract';

/**
 * Photos by their content, never by their name or declared type. The first bytes say what the file claims
 * to be (JPEG, PNG, WebP; HEIC is recognised in order to be refused with its own message); then the image
 * is decoded and encoded again by libvips (sharp), which is what makes it safe to show:
 *
 * - the EXIF orientation is applied to the pixels (reviewers see phone photos upright);
 * - nothing but pixels survives: EXIF (GPS position, camera, dates), XMP, ICC profiles, comments, text
 *   chunks, and whatever a polyglot hid after or inside the image are not carried into the new file;
 * - the long side is capped (UPLOAD_MAX_SIDE), and a small JPEG thumbnail (UPLOAD_THUMBNAIL_SIDE) is made
 *   for the console's review pages;
 * - a file libvips cannot decode completely and without warnings (cut short, broken; a PNG without its
 *   closing IEND chunk) is refused as corrupt.
 *
 * HEIC: sharp's prebuilt libvips reads HEIF only with AV1 inside (AVIF); it has no HEVC decoder, which
 * is what phones write (ADR 0018). An HEIC upload is refused with UPLOAD_HEIC, which tells the user how to
 * send a JPEG instead.
 */
export type ImageType = (typeof UPLOAD_CONTENT_TYPES)[number];
/** What is stored: every accepted image is re-encoded as one of these. */
export type StoredImageType = Exclude<ImageType, 'image/heic'>;
export type ImageRefusal = 'empty' | 'too_large' | 'unsupported_type' | 'heic' | 'corrupt';

export interface ImageLimits {
  /** The longest side kept, in pixels; larger photos are scaled down. */
  maxSide: number;
  /** The thumbnail's longest side, in pixels. */
  thumbnailSide: number;
}

export interface ProcessedImage {
  ok: true;
  type: StoredImageType;
  bytes: Buffer;
  width: number;
  height: number;
  /** A JPEG of at most `thumbnailSide` pixels on its long side. */
  thumbnail: Buffer;
}
export type Processing = ProcessedImage | { ok: false; reason: ImageRefusal };

/** More pixels than any phone camera makes (a 48 MP sensor is 8064 × 6048): a decompression bomb. */
const MAX_INPUT_PIXELS = 64_000_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A PNG's last chunk (empty IEND with its CRC). libvips draws a PNG cut short after its pixel data. */
const PNG_END = Buffer.from('0000000049454e44ae426082', 'hex');
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);

function ascii(bytes: Uint8Array, at: number, length = 4): string {
  let s = '';
  for (let i = at; i < at + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i] ?? 0);
  return s;
}

/** The image type the bytes start like, or undefined. Looks at the first bytes only. */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0) === 'RIFF' && ascii(bytes, 8) === 'WEBP') return 'image/webp';
  if (bytes.length >= 16 && ascii(bytes, 4) === 'ftyp') {
    const size = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
    const end = Math.min(size, bytes.length);
    if (HEIC_BRANDS.has(ascii(bytes, 8))) return 'image/heic';
    for (let at = 16; at + 4 <= end; at += 4) if (HEIC_BRANDS.has(ascii(bytes, at))) return 'image/heic';
  }
  return undefined;
}

const FORMAT_OF: Record<StoredImageType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** Checks the bytes, decodes them and returns a clean re-encoded copy with its thumbnail, or why not. */
export async function processImage(bytes: Uint8Array, limits: ImageLimits): Promise<Processing> {
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  if (bytes.length > UPLOAD_MAX_BYTES) return { ok: false, reason: 'too_large' };
  const type = sniffImage(bytes);
  if (!type) return { ok: false, reason: 'unsupported_type' };
  if (type === 'image/heic') return { ok: false, reason: 'heic' };
  if (
    type === 'image/png' &&
    !Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(PNG_END)
  ) {
    return { ok: false, reason: 'corrupt' };
  }
  try {
    // failOn 'warning': a photo cut short is refused, not shown with a grey lower half (libspng calls a
    // PNG whose compressed data stops early a warning only).
    const input = sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS });
    const { format } = await input.metadata();
    // The content must be what its first bytes say (no JPEG header in front of something else).
    if (format !== FORMAT_OF[type]) return { ok: false, reason: 'corrupt' };
    const upright = input
      .rotate()
      .resize({ width: limits.maxSide, height: limits.maxSide, fit: 'inside', withoutEnlargement: true });
    const encoded =
      type === 'image/jpeg'
        ? upright.jpeg({ quality: 90 })
        : type === 'image/png'
          ? upright.png()
          : upright.webp({ quality: 90 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      ok: true,
      type,
      bytes: data,
      width: info.width,
      height: info.height,
      thumbnail: await makeThumbnail(data, limits.thumbnailSide),
    };
  } catch {
    return { ok: false, reason: 'corrupt' };
  }
}

/** A JPEG of an image already stored (re-encoded by processImage), at most `side` pixels on its long side. */
export async function makeThumbnail(bytes: Uint8Array, side: number): Promise<Buffer> {
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
}
