import { crc32, deflateSync } from 'node:zlib';

/**
 * Small images built in code: the demo's placeholder identity photos, and test fixtures. No files ship.
 */

/** A valid PNG of w×h grey pixels, optionally with a tEXt chunk (metadata a camera or editor would add). */
export function pngBytes(w = 2, h = 2, text?: string): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) rows[y * (w + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(text === undefined ? [] : [chunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1'))]),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A multipart/form-data body with text fields and one file (tests drive uploads through app.inject with it). */
export function multipart(
  fields: Record<string, string>,
  file?: { name: string; type: string; bytes: Buffer; field?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----kabuto${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * A decodable 8×8 mid-grey baseline JPEG (one block, all coefficients zero), optionally with an EXIF APP1
 * segment and a comment, as a phone or an editor would write them.
 */
export function jpegBytes(options: { exif?: string; comment?: string } = {}): Buffer {
  const segment = (marker: number, data: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(data.length + 2, 2);
    return Buffer.concat([head, data]);
  };
  const jfif = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const quant = Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)]);
  const frame = Buffer.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
  // one code of length 1 for DC category 0, one for the AC end-of-block: every block is "00"
  const huffman = (tableClass: number) =>
    Buffer.concat([
      Buffer.from([tableClass << 4]),
      Buffer.from([1, ...Array<number>(15).fill(0)]),
      Buffer.from([0]),
    ]);
  const scan = Buffer.from([1, 1, 0, 0, 63, 0]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, jfif),
    ...(options.exif === undefined
      ? []
      : [
          segment(
            0xe1,
            Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from(options.exif, 'latin1')]),
          ),
        ]),
    ...(options.comment === undefined ? [] : [segment(0xfe, Buffer.from(options.comment, 'latin1'))]),
    segment(0xdb, quant),
    segment(0xc0, frame),
    segment(0xc4, huffman(0)),
    segment(0xc4, huffman(1)),
    segment(0xda, scan),
    Buffer.from([0x3f]), // "00" then 1-bits to the byte's end
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A WebP container (VP8X, a VP8L image chunk) with optional EXIF and XMP chunks. The pixels are not decoded. */
export function webpBytes(options: { exif?: string; xmp?: string } = {}): Buffer {
  const chunk = (fourcc: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(fourcc, 0, 'latin1');
    head.writeUInt32LE(data.length, 4);
    return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
  };
  const flags = (options.exif === undefined ? 0 : 0x08) | (options.xmp === undefined ? 0 : 0x04);
  const vp8x = Buffer.from([flags, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const vp8l = Buffer.from([0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]);
  const body = Buffer.concat([
    Buffer.from('WEBP', 'latin1'),
    chunk('VP8X', vp8x),
    chunk('VP8L', vp8l),
    ...(options.exif === undefined ? [] : [chunk('EXIF', Buffer.from(options.exif, 'latin1'))]),
    ...(options.xmp === undefined ? [] : [chunk('XMP ', Buffer.from(options.xmp, 'latin1'))]),
  ]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/**
 * A HEIF container laid out as an iPhone writes one: ftyp, a meta box whose item table names a coded
 * image item and an Exif item, and the items' bytes in mdat. The image bytes are not decoded.
 */
export function heicBytes(options: { exif?: string } = {}): Buffer {
  const box = (type: string, ...content: Buffer[]) => {
    const data = Buffer.concat(content);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length + 8, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data]);
  };
  const full = (version: number) => Buffer.from([version, 0, 0, 0]);
  const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const image = Buffer.alloc(32, 0x42);
  const exif =
    options.exif === undefined ? undefined : Buffer.from(`\0\0\0\0Exif\0\0${options.exif}`, 'latin1');
  const items = [
    { id: 1, type: 'hvc1', bytes: image },
    ...(exif ? [{ id: 2, type: 'Exif', bytes: exif }] : []),
  ];
  const ftyp = box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1'));
  const infe = (id: number, type: string) =>
    box('infe', full(2), u16(id), u16(0), Buffer.from(type, 'latin1'), Buffer.from([0]));
  const iinf = box('iinf', full(0), u16(items.length), ...items.map((i) => infe(i.id, i.type)));
  const hdlr = box(
    'hdlr',
    full(0),
    u32(0),
    Buffer.from('pict', 'latin1'),
    Buffer.alloc(12),
    Buffer.from([0]),
  );
  // iloc version 0: offsets and lengths of 4 bytes, no base offset; offsets are filled in once the size is known
  const iloc = (offsets: number[]) =>
    box(
      'iloc',
      full(0),
      Buffer.from([0x44, 0x00]),
      u16(items.length),
      ...items.map((item, i) =>
        Buffer.concat([u16(item.id), u16(0), u16(1), u32(offsets[i] ?? 0), u32(item.bytes.length)]),
      ),
    );
  const meta = (offsets: number[]) =>
    box('meta', full(0), hdlr, box('pitm', full(0), u16(1)), iinf, iloc(offsets));
  const start = ftyp.length + meta([]).length + 8;
  const offsets: number[] = [];
  let at = start;
  for (const item of items) {
    offsets.push(at);
    at += item.bytes.length;
  }
  return Buffer.concat([ftyp, meta(offsets), box('mdat', ...items.map((i) => i.bytes))]);
}
