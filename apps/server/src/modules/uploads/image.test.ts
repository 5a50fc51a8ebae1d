import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '@kabuto/contract';
import { heicBytes, jpegBytes, pngBytes, webpBytes } from '../../lib/images.js';
import { processImage, sniffImage, type ProcessedImage, type Processing } from './image.js';

const SECRET = 'GPS 35.6812N 139.7671E iPhone 15 2026:11:23';
const limits = { maxSide: 4096, thumbnailSide: 480 };

function contains(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes).includes(Buffer.from(text, 'latin1'));
}

function accepted(result: Processing): ProcessedImage {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result;
}

/** A w×h photo, red in its top half and blue in its bottom half, as a camera would store it. */
function photo(w: number, h: number) {
  const top = Buffer.alloc(w * Math.floor(h / 2) * 3);
  const bottom = Buffer.alloc(w * (h - Math.floor(h / 2)) * 3);
  for (let i = 0; i < top.length; i += 3) top[i] = 255;
  for (let i = 2; i < bottom.length; i += 3) bottom[i] = 255;
  return sharp(Buffer.concat([top, bottom]), { raw: { width: w, height: h, channels: 3 } });
}

/** A phone's JPEG: stored landscape with EXIF orientation 6 (show rotated 90° clockwise), GPS and camera. */
async function phoneJpeg(): Promise<Buffer> {
  return photo(40, 20)
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'KabutoPhone', Model: SECRET },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 40/1 52/1', GPSLongitudeRef: 'E' },
    })
    .toBuffer();
}

/** The red, green and blue of one pixel of an encoded image. */
async function pixel(bytes: Uint8Array, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1];
}

const reddish = ([r, g, b]: number[]) => (r ?? 0) > 200 && (g ?? 0) < 60 && (b ?? 0) < 60;
const bluish = ([r, g, b]: number[]) => (r ?? 0) < 60 && (g ?? 0) < 60 && (b ?? 0) > 200;

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

describe('processImage', () => {
  it('refuses empty, oversized and unsupported files', async () => {
    expect(await processImage(new Uint8Array(), limits)).toEqual({ ok: false, reason: 'empty' });
    expect(await processImage(new Uint8Array(UPLOAD_MAX_BYTES + 1), limits)).toEqual({
      ok: false,
      reason: 'too_large',
    });
    expect(await processImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), limits)).toEqual({
      ok: false,
      reason: 'unsupported_type',
    });
  });

  it('refuses HEIC with its own reason: the prebuilt libvips has no HEVC decoder', async () => {
    expect(await processImage(heicBytes({ exif: SECRET }), limits)).toEqual({ ok: false, reason: 'heic' });
    // what the refusal stands on: sharp reads HEIF only with AV1 inside (AVIF)
    expect(sharp.format.heif.input.fileSuffix).toEqual(['.avif']);
  });

  it('turns a phone photo with EXIF orientation 6 upright and keeps no EXIF, GPS or camera', async () => {
    const input = await phoneJpeg();
    const before = await sharp(input).metadata();
    expect([before.width, before.height, before.orientation]).toEqual([40, 20, 6]);
    expect(contains(input, SECRET)).toBe(true);

    const out = accepted(await processImage(input, limits));
    expect(out.type).toBe('image/jpeg');
    const after = await sharp(out.bytes).metadata();
    expect([after.width, after.height, out.width, out.height]).toEqual([20, 40, 20, 40]);
    expect(after.orientation).toBeUndefined();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(contains(out.bytes, SECRET)).toBe(false);
    expect(contains(out.bytes, 'KabutoPhone')).toBe(false);
    expect(contains(out.bytes, 'Exif')).toBe(false);
    // turned clockwise: the stored top (red) is now on the right, the bottom (blue) on the left
    expect(reddish(await pixel(out.bytes, 15, 20))).toBe(true);
    expect(bluish(await pixel(out.bytes, 4, 20))).toBe(true);
  });

  it('caps the long side and makes a JPEG thumbnail beside the photo', async () => {
    const big = await photo(300, 60).png().toBuffer();
    const out = accepted(await processImage(big, { maxSide: 100, thumbnailSide: 48 }));
    expect([out.type, out.width, out.height]).toEqual(['image/png', 100, 20]);
    const thumb = await sharp(out.thumbnail).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['jpeg', 48, 10]);
    expect(thumb.exif).toBeUndefined();
    // a small photo is not enlarged, and its thumbnail is upright too
    const small = accepted(await processImage(await phoneJpeg(), { maxSide: 100, thumbnailSide: 480 }));
    expect([small.width, small.height]).toEqual([20, 40]);
    const smallThumb = await sharp(small.thumbnail).metadata();
    expect([smallThumb.width, smallThumb.height]).toEqual([20, 40]);
  });

  it('drops text chunks from a PNG and the EXIF and XMP of a WebP', async () => {
    const png = accepted(await processImage(pngBytes(3, 2, SECRET), limits));
    expect([png.type, png.width, png.height]).toEqual(['image/png', 3, 2]);
    expect(contains(png.bytes, SECRET)).toBe(false);
    const webp = accepted(
      await processImage(webpBytes({ exif: SECRET, xmp: '<x:xmpmeta>creator</x:xmpmeta>' }), limits),
    );
    expect(webp.type).toBe('image/webp');
    expect(contains(webp.bytes, SECRET)).toBe(false);
    expect(contains(webp.bytes, 'xmpmeta')).toBe(false);
    expect(sniffImage(webp.bytes)).toBe('image/webp');
  });

  it('keeps nothing a polyglot hid after the image, and refuses one format dressed as another', async () => {
    const zip = Buffer.from('PK\x03\x04 hidden zip', 'latin1');
    const out = accepted(
      await processImage(Buffer.concat([await photo(16, 16).jpeg().toBuffer(), zip]), limits),
    );
    expect(contains(out.bytes, 'hidden zip')).toBe(false);
    // a PNG signature in front of a JPEG
    const dressed = Buffer.concat([pngBytes().subarray(0, 8), await photo(16, 16).jpeg().toBuffer()]);
    expect(await processImage(dressed, limits)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('finds a PNG chunk whose checksum does not match', async () => {
    const png = Buffer.from(pngBytes(4, 4));
    const idat = png.indexOf('IDAT');
    png[idat + 6] = (png[idat + 6] ?? 0) ^ 0xff;
    expect(await processImage(png, limits)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it.each([
    [
      'JPEG',
      () =>
        photo(64, 64)
          .jpeg()
          .withExif({ IFD0: { Model: SECRET } })
          .toBuffer(),
    ],
    ['PNG', () => photo(64, 64).png().toBuffer()],
    ['WebP', () => photo(64, 64).webp().toBuffer()],
  ])('refuses a %s cut short as corrupt', async (_name, make) => {
    const bytes = await make();
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    expect(await processImage(cut, limits)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('never throws, and never lets the metadata through, whatever the bytes', async () => {
    const samples = [
      await phoneJpeg(),
      jpegBytes({ exif: SECRET }),
      pngBytes(3, 3, SECRET),
      webpBytes({ exif: SECRET }),
      heicBytes({ exif: SECRET }),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...samples),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        async (sample, cut, flips) => {
          const bytes = Buffer.from(sample.subarray(0, 4 + (cut % sample.length)));
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          const result = await processImage(bytes, limits);
          if (result.ok) {
            expect(sniffImage(result.bytes)).toBe(result.type);
            expect(contains(result.bytes, SECRET)).toBe(false);
          }
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (bytes) => {
        await processImage(bytes, limits);
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
