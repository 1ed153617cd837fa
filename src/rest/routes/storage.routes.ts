import type { Response } from 'express';
import type { Services } from '../../services';
import type { RouteDef, RouteTable } from '../route-table';
import { errorBody } from '../schemas/schema-kit';

type Kind = { enumName: 'AVATAR' | 'NETWORK_IMAGE'; segment: 'avatars' | 'network-images'; field: string };

const AVATARS: Kind = { enumName: 'AVATAR', segment: 'avatars', field: 'avatar' };
const NETWORK_IMAGES: Kind = { enumName: 'NETWORK_IMAGE', segment: 'network-images', field: 'image' };

/**
 * Streams a stored image. The type comes from the stored name (chosen by sniffing at upload),
 * `nosniff` and a sandboxing CSP keep a browser from reading it as anything else, and names are
 * random and never reused, so caches may keep the bytes for a year.
 */
function sendImage(kind: Kind, res: Response, image: { userId: string; filename: string; contentType: string }, services: Services): Promise<void> {
  const path = services.storage.pathOf(kind.segment, image.userId, image.filename);
  return new Promise((resolve) => {
    if (!path) {
      res.status(404).json({ error: 'not_found', detail: 'Image not found' });
      return resolve();
    }
    res.setHeader('Content-Type', image.contentType);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.sendFile(path, { maxAge: 365 * 24 * 3600 * 1000, immutable: true, dotfiles: 'deny' }, (err) => {
      // The file went away between the metadata read and the send.
      if (err && !res.headersSent) res.status(404).json({ error: 'not_found', detail: 'Image not found' });
      resolve();
    });
  });
}

const uploadRow = (kind: Kind): RouteDef => ({
  method: 'POST',
  path: `/api/storage/${kind.segment}`,
  operation: 'UploadImage',
  summary: `Uploads ${kind.segment === 'avatars' ? 'an avatar' : 'a network image'} (PNG, JPEG, GIF or WebP; multipart field ${kind.field})`,
  errors: { 422: errorBody(undefined, 'Not an image of a supported type, or too large in pixels') },
  upload: { field: kind.field },
  // Without a file the operation still runs, so a missing credential answers 401 before the 400.
  variables: (r) => ({ kind: kind.enumName, contentBase64: r.file ? r.file.buffer.toString('base64') : '' }),
});

const serveRow = (kind: Kind): RouteDef => ({
  method: 'GET',
  path: `/api/storage/${kind.segment}/:userId/:filename`,
  operation: 'StoredImage',
  summary: `Serves ${kind.segment === 'avatars' ? 'an avatar' : 'a network image'}; needs no credential`,
  content: { kind: 'image' },
  variables: (r) => ({ kind: kind.enumName, userId: r.params.userId, filename: r.params.filename }),
  send: (res, d, _r, services) => sendImage(kind, res, d.storedImage, services),
});

export const storageRoutes: RouteTable = [uploadRow(AVATARS), uploadRow(NETWORK_IMAGES), serveRow(AVATARS), serveRow(NETWORK_IMAGES)];
