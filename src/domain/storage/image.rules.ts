import type * as ImageSize from 'image-size';

export interface ImageFormat {
  ext: 'png' | 'jpg' | 'gif' | 'webp';
  contentType: string;
}

/** The only formats accepted and served. SVG is not among them: it can carry script. */
export const IMAGE_FORMATS: Record<ImageFormat['ext'], ImageFormat> = {
  png: { ext: 'png', contentType: 'image/png' },
  jpg: { ext: 'jpg', contentType: 'image/jpeg' },
  gif: { ext: 'gif', contentType: 'image/gif' },
  webp: { ext: 'webp', contentType: 'image/webp' },
};

/** Larger images are refused: a tiny file can decode to a canvas that exhausts a viewer's memory. */
export const MAX_IMAGE_SIDE = 8192;

const ascii = (b: Buffer, from: number, to: number) => b.subarray(from, to).toString('latin1');

/** The format named by the file's leading bytes, whatever the client said it was. */
function signatureOf(b: Buffer): ImageFormat['ext'] | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  return null;
}

export type SniffResult =
  | { ok: true; format: ImageFormat; width: number; height: number }
  | { ok: false; reason: 'not_an_image' | 'too_large' };

/**
 * Decides what the bytes are. The leading signature must name an allowed format and the
 * image-size parser must read that same format's header with real dimensions; anything else
 * (another type, a renamed file, a truncated header) is not an image we accept.
 */
export function sniffImage(bytes: Buffer): SniffResult {
  const ext = signatureOf(bytes);
  if (!ext) return { ok: false, reason: 'not_an_image' };
  let parsed: { type?: string; width?: number; height?: number };
  try {
    // Loaded on the first upload rather than at startup.
    parsed = (require('image-size') as typeof ImageSize).imageSize(bytes);
  } catch {
    return { ok: false, reason: 'not_an_image' };
  }
  const { type, width, height } = parsed;
  if (type !== ext || !width || !height) return { ok: false, reason: 'not_an_image' };
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) return { ok: false, reason: 'too_large' };
  return { ok: true, format: IMAGE_FORMATS[ext], width, height };
}

/** Content type of a stored file, from the extension the upload's sniffing chose. */
export function formatOfFilename(filename: string): ImageFormat | null {
  const ext = filename.slice(filename.lastIndexOf('.') + 1);
  return Object.prototype.hasOwnProperty.call(IMAGE_FORMATS, ext) ? IMAGE_FORMATS[ext as ImageFormat['ext']] : null;
}
