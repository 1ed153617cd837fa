import { hash } from 'node:crypto';

/**
 * Express's default ETag (weak: `W/"<length in hex>-<SHA-1, base64, 27 characters>"`), the same
 * value from Node's one-shot `crypto.hash`, which makes no hash object per answer (issue 17).
 * Set as the app's `etag` function; its values are those Express gave before.
 */
export function weakEtag(body: Buffer | string, encoding?: BufferEncoding): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, encoding) : body;
  if (bytes.length === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  return `W/"${bytes.length.toString(16)}-${hash('sha1', bytes, 'base64').substring(0, 27)}"`;
}
