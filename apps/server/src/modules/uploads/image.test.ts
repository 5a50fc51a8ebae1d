import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '@kabuto/contract';
import { heicBytes, jpegBytes, pngBytes, webpBytes } from '../../lib/images.js';
import { inspectAndStrip, sniffImage, type Inspection } from './image.js';

const SECRET = 'GPS 35.6812N 139.7671E iPhone 15 2026:11:23';

function contains(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes).includes(Buffer.from(text, 'latin1'));
}

function accepted(result: Inspection): Uint8Array {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.bytes;
}

describe('sniffImage', () => {
  it.each([
    ['JPEG', jpegBytes(), 'image/jpeg'],
    ['PNG', pngBytes(), 'image/png'],
    ['WebP', webpBytes(), 'image/webp'],
    ['HEIC', heicBytes(), 'image/heic'],
  ])('knows %s by its content', (_name, bytes, type) => {
    expect(sniffImage(bytes)).toBe(type);
  });

  it.each([
    ['text', Buffer.from('this is not an image at all')],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['PDF', Buffer.from('%PDF-1.7\n', 'latin1')],
    ['AVIF (a HEIF brand that is not HEIC)', Buffer.from('\0\0\0\x18ftypavif\0\0\0\0mif1avif', 'latin1')],
    ['a RIFF that is not WebP', Buffer.from('RIFF\x04\0\0\0WAVE', 'latin1')],
  ])('knows %s is none of them', (_name, bytes) => {
    expect(sniffImage(bytes)).toBeUndefined();
  });
});

describe('inspectAndStrip', () => {
  it('refuses empty, oversized and unsupported files', () => {
    expect(inspectAndStrip(new Uint8Array())).toEqual({ ok: false, reason: 'empty' });
    expect(inspectAndStrip(new Uint8Array(UPLOAD_MAX_BYTES + 1))).toEqual({ ok: false, reason: 'too_large' });
    expect(inspectAndStrip(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({
      ok: false,
      reason: 'unsupported_type',
    });
  });

  it('drops EXIF and comments from a JPEG and keeps the rest byte for byte', () => {
    const plain = jpegBytes();
    const tagged = jpegBytes({ exif: SECRET, comment: 'edited with PhotoTool' });
    const out = accepted(inspectAndStrip(tagged));
    expect(contains(tagged, SECRET)).toBe(true);
    expect(contains(out, SECRET)).toBe(false);
    expect(contains(out, 'PhotoTool')).toBe(false);
    expect(Buffer.from(out).equals(plain)).toBe(true);
  });

  it('drops what follows the end of a JPEG', () => {
    const plain = jpegBytes();
    const out = accepted(
      inspectAndStrip(Buffer.concat([plain, Buffer.from('PK\x03\x04 hidden zip', 'latin1')])),
    );
    expect(Buffer.from(out).equals(plain)).toBe(true);
  });

  it('drops text chunks from a PNG and keeps the image chunks', () => {
    const tagged = pngBytes(3, 2, SECRET);
    const out = accepted(inspectAndStrip(tagged));
    expect(contains(out, SECRET)).toBe(false);
    expect(Buffer.from(out).equals(pngBytes(3, 2))).toBe(true);
  });

  it('finds a PNG chunk whose checksum does not match', () => {
    const png = Buffer.from(pngBytes(4, 4));
    const idat = png.indexOf('IDAT');
    png[idat + 6] = (png[idat + 6] ?? 0) ^ 0xff;
    expect(inspectAndStrip(png)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('drops the EXIF and XMP chunks of a WebP and clears the flags that announce them', () => {
    const tagged = webpBytes({ exif: SECRET, xmp: '<x:xmpmeta>creator</x:xmpmeta>' });
    const out = accepted(inspectAndStrip(tagged));
    expect(contains(out, SECRET)).toBe(false);
    expect(contains(out, 'xmpmeta')).toBe(false);
    expect(Buffer.from(out).equals(webpBytes())).toBe(true);
    expect(Buffer.from(out).readUInt32LE(4)).toBe(out.length - 8);
  });

  it('blanks the Exif item of a HEIC in place and leaves the image item alone', () => {
    const tagged = heicBytes({ exif: SECRET });
    const out = accepted(inspectAndStrip(tagged));
    expect(out.length).toBe(tagged.length);
    expect(contains(out, SECRET)).toBe(false);
    // the Exif item is the last thing in mdat: all of it is zeros now
    const exifLength = 10 + SECRET.length;
    expect(out.subarray(out.length - exifLength).every((b) => b === 0)).toBe(true);
    // the coded image bytes are untouched
    expect(Buffer.from(out).includes(Buffer.alloc(32, 0x42))).toBe(true);
    expect(accepted(inspectAndStrip(heicBytes()))).toEqual(new Uint8Array(heicBytes()));
  });

  it.each([
    ['JPEG', jpegBytes({ exif: SECRET })],
    ['PNG', pngBytes(4, 4, SECRET)],
    ['WebP', webpBytes({ exif: SECRET })],
    ['HEIC', heicBytes({ exif: SECRET })],
  ])('calls a %s cut short truncated', (_name, bytes) => {
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    expect(inspectAndStrip(cut)).toEqual({ ok: false, reason: 'truncated' });
  });

  it('never throws, and never lets the metadata through, whatever the bytes', () => {
    const samples = [
      jpegBytes({ exif: SECRET }),
      pngBytes(3, 3, SECRET),
      webpBytes({ exif: SECRET }),
      heicBytes({ exif: SECRET }),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...samples),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        (sample, cut, flips) => {
          const bytes = Buffer.from(sample.subarray(0, 4 + (cut % sample.length)));
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          const result = inspectAndStrip(bytes);
          if (result.ok) expect(sniffImage(result.bytes)).toBe(result.type);
          return true;
        },
      ),
      { numRuns: 2000, seed: 20261123 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        inspectAndStrip(bytes);
        return true;
      }),
      { numRuns: 2000, seed: 20261123 },
    );
  });
});
