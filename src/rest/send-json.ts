import type { Request, Response } from 'express';

/**
 * Answers `body` as JSON exactly as Express's `res.status(status).json(body)` would (the same
 * bytes, `Content-Type`, `Content-Length` and `ETag`, from the app's own ETag function), without
 * its per-call work that changes nothing here: re-reading and re-formatting the content type
 * through the MIME tables and converting the text twice (issue 17). Whatever that shortcut does
 * not cover goes to Express as before: a conditional request (freshness, 304), a status outside
 * 2xx or one Express strips (204, 205), a content type or ETag already set, JSON settings on the
 * app.
 */
export function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  const app = req.app;
  const etagOf = app.get('etag fn') as ((body: Buffer, encoding?: BufferEncoding) => string | undefined) | undefined;
  if (
    status < 200 ||
    status > 299 ||
    status === 204 ||
    status === 205 ||
    req.headers['if-none-match'] !== undefined ||
    req.headers['if-modified-since'] !== undefined ||
    res.getHeader('content-type') !== undefined ||
    res.getHeader('etag') !== undefined ||
    app.get('json replacer') !== undefined ||
    app.get('json spaces') !== undefined ||
    app.get('json escape')
  ) {
    res.status(status).json(body);
    return;
  }
  const chunk = Buffer.from(JSON.stringify(body) ?? '', 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(chunk.length));
  const tag = typeof etagOf === 'function' ? etagOf(chunk) : undefined;
  if (tag) res.setHeader('ETag', tag);
  if (req.method === 'HEAD') res.end();
  else res.end(chunk);
}
