import { crc32, deflateSync } from 'node:zlib';

/** Small real images built in code, so the tests carry no binary fixtures. */

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A grayscale PNG of the given size (one filter byte and `width` zero samples per row). */
export function png(width = 2, height = 2): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const raw = Buffer.alloc((width + 1) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A baseline 8x8 mid-gray JPEG: one block whose DC difference and AC run are both empty. */
export function jpeg(): Buffer {
  const hex = [
    'ffd8',
    'ffe000104a46494600010100000100010000',
    `ffdb004300${'01'.repeat(64)}`,
    'ffc0000b080008000801011100',
    `ffc4001400${'01'}${'00'.repeat(15)}00`,
    `ffc4001410${'01'}${'00'.repeat(15)}00`,
    'ffda0008010100003f00',
    '3f',
    'ffd9',
  ].join('');
  return Buffer.from(hex, 'hex');
}

/** A 1x1 GIF89a with a two-colour palette. */
export function gif(): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00]),
    Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff, 0xff]),
    Buffer.from([0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]),
    Buffer.from([0x3b]),
  ]);
}

/** A 1x1 lossless WebP (VP8L) container. */
export function webp(): Buffer {
  // 0x2f signature, then 14 bits width-1, 14 bits height-1, alpha bit, 3 version bits (all zero for 1x1).
  const vp8l = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x00, 0x88, 0x88, 0x08, 0x08, 0x00]);
  const chunkHeader = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.alloc(4)]);
  chunkHeader.writeUInt32LE(vp8l.length, 4);
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), chunkHeader, vp8l]);
  const riff = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4)]);
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}
