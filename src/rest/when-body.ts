import type { RequestHandler } from 'express';

/**
 * Runs `parser` only for a request that carries a body (a Content-Length or Transfer-Encoding
 * header, as body-parser's own test), so GETs and DELETEs without one skip it: `req.body` stays
 * undefined, exactly as the parser leaves it for them.
 */
export function whenBody(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    return parser(req, res, next);
  };
}
