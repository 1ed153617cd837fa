import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Actor } from '../auth/actor';
import { DomainService } from '../shared/domain-service';
import { badRequest, DomainError, notFound, unprocessable } from '../shared/errors';
import { isUuid } from '../shared/validation';
import { formatOfFilename, MAX_IMAGE_SIDE, sniffImage } from './image.rules';

/** The two upload folders, named as their URL path segment. */
export type ImageKind = 'avatars' | 'network-images';
export const IMAGE_KINDS: readonly ImageKind[] = ['avatars', 'network-images'];

/** Stored names are ours alone: 32 random hex digits and the sniffed format's extension. */
export const STORED_FILENAME_RE = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

export interface StoredImage {
  kind: ImageKind;
  userId: string;
  filename: string;
  /** Absolute URL of the no-credential GET route that serves the bytes. */
  url: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL_PREFIX_RE = /^data:[^,]*;base64,/;

/**
 * Uploaded images under DATA_DIR/uploads/<kind>/<userId>/<random>.<ext>
 * (docs/adr/0018-image-storage.md). Bytes are sniffed; the client's type and name are ignored.
 */
export class ImageStorageService extends DomainService {
  private get root(): string {
    return join(this.config.DATA_DIR, 'uploads');
  }

  /** Decodes base64 (optionally a data: URL), as the GraphQL mutation carries the bytes. */
  decodeBase64(content: string): Buffer {
    const body = content.replace(DATA_URL_PREFIX_RE, '').replace(/\s+/g, '');
    if (!BASE64_RE.test(body) || body.length % 4 !== 0) {
      throw badRequest([{ path: 'contentBase64', message: 'Not valid base64' }]);
    }
    return Buffer.from(body, 'base64');
  }

  async store(a: Actor, kind: ImageKind, bytes: Buffer): Promise<StoredImage> {
    if (bytes.length === 0) throw badRequest([{ path: 'file', message: 'No file was sent, or it is empty' }]);
    if (bytes.length > this.config.UPLOAD_MAX_BYTES) {
      throw new DomainError('PAYLOAD_TOO_LARGE', 'payload_too_large', { detail: `Images may be at most ${this.config.UPLOAD_MAX_BYTES} bytes` });
    }
    const sniffed = sniffImage(bytes);
    if (!sniffed.ok && sniffed.reason === 'too_large') {
      throw unprocessable('image_too_large', { detail: `Images may be at most ${MAX_IMAGE_SIDE} pixels on a side` });
    }
    if (!sniffed.ok) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'unsupported_media_type', { detail: 'The file must be a PNG, JPEG, GIF or WebP image' });
    }
    const dir = join(this.root, kind, a.userId);
    const filename = `${randomBytes(16).toString('hex')}.${sniffed.format.ext}`;
    await mkdir(dir, { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const partial = join(dir, `.${filename}.partial`);
    await writeFile(partial, bytes, { mode: 0o644 });
    await rename(partial, join(dir, filename));
    return {
      kind,
      userId: a.userId,
      filename,
      url: this.urlOf(kind, a.userId, filename),
      contentType: sniffed.format.contentType,
      size: bytes.length,
      createdAt: new Date(),
    };
  }

  /** Metadata of a stored image; anything not matching a stored name exactly is 404. */
  async describe(kind: string, userId: string, filename: string): Promise<StoredImage> {
    const path = this.pathOf(kind, userId, filename);
    const format = formatOfFilename(filename);
    const st = path && format ? await stat(path).catch(() => null) : null;
    if (!st?.isFile() || !format) throw notFound('Image');
    const k = kind as ImageKind;
    const owner = userId.toLowerCase();
    return { kind: k, userId: owner, filename, url: this.urlOf(k, owner, filename), contentType: format.contentType, size: st.size, createdAt: st.mtime };
  }

  /** The file's absolute path, or null when any part is not one of ours (no traversal possible). */
  pathOf(kind: string, userId: string, filename: string): string | null {
    if (!(IMAGE_KINDS as readonly string[]).includes(kind) || !isUuid(userId) || !STORED_FILENAME_RE.test(filename)) return null;
    return join(this.root, kind, userId.toLowerCase(), filename);
  }

  /** Removes one stored image (a second copy of bytes already stored, say); a name that is not ours is ignored. */
  async removeFile(kind: ImageKind, userId: string, filename: string): Promise<void> {
    const path = this.pathOf(kind, userId, filename);
    if (path) await rm(path, { force: true });
  }

  /** Removes every image a user uploaded (account deletion). */
  async removeUserFiles(userId: string): Promise<void> {
    if (!isUuid(userId)) return;
    await Promise.all(IMAGE_KINDS.map((k) => rm(join(this.root, k, userId.toLowerCase()), { recursive: true, force: true })));
  }

  private urlOf(kind: ImageKind, userId: string, filename: string): string {
    return `${this.config.PUBLIC_URL}/api/storage/${kind}/${userId}/${filename}`;
  }
}
