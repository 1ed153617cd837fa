import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { badRequest, DomainError } from '../domain/shared/errors';
import { nestingDepth } from '../domain/shared/validation';
import type { HttpMethod } from './route-table';

/**
 * Reading request bodies, for REST and GraphQL alike: JSON is the only body type read (and
 * multipart on the routes that take an upload); a body of any other type is refused with 415
 * rather than ignored, because a route that never saw the body would otherwise answer 2xx as
 * if the fields had been left out. JSON must be well-formed in its charset (invalid UTF-8 is a
 * 400, as NUL already is) and nest at most MAX_JSON_DEPTH deep, so no rule further in walks a
 * body ten thousand levels deep.
 */

export const MAX_JSON_DEPTH = 64;

const unsupported = (type: string | undefined, accepted: string) =>
  new DomainError('UNSUPPORTED_MEDIA_TYPE', 'unsupported_media_type', {
    detail: `A body of type ${type ? JSON.stringify(type.split(';')[0].trim().slice(0, 100)) : '(none given)'} is not read here; send ${accepted}`,
  });

/** body-parser's `verify`: the raw bytes must decode in the declared charset (utf-8 unless said). */
function wellEncoded(_req: Request, _res: Response, buf: Buffer, encoding: string): void {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding || 'utf-8', { fatal: true });
  } catch {
    return; // a charset body-parser itself refuses (415) or decodes on its own
  }
  try {
    decoder.decode(buf);
  } catch {
    throw new DomainError('BAD_REQUEST', 'invalid_json', { details: [{ path: '', message: `The body is not valid ${(encoding || 'utf-8').toUpperCase()}` }] });
  }
}

/** The 400 for a value nested deeper than MAX_JSON_DEPTH (`subject`: "The body nests", "The variables nest"); null when it is not. */
export function tooDeep(value: unknown, subject: string): DomainError | null {
  return nestingDepth(value) > MAX_JSON_DEPTH ? badRequest([{ path: '', message: `${subject} objects and arrays deeper than ${MAX_JSON_DEPTH} levels` }]) : null;
}

function shallowEnough(req: Request, _res: Response, next: NextFunction): void {
  next((req.body !== undefined && tooDeep(req.body, 'The body nests')) || undefined);
}

const JSON_TYPES = ['application/json', '+json'];

const isJson = (req: Request) => Boolean(req.is(JSON_TYPES));

/**
 * Anything else is read (as bytes, within the JSON limit) only to tell an empty body, which is
 * no body at all whatever its content-type says, from one that would go unread: that is 415.
 */
const rawBody = express.raw({ type: () => true, limit: '1mb' });
function refuseUnlessEmpty(req: Request, res: Response, next: NextFunction, accepted: string): void {
  rawBody(req, res, (err?: unknown) => {
    if (err) return next(err);
    if (Buffer.isBuffer(req.body) && req.body.length > 0) return next(unsupported(req.headers['content-type'], accepted));
    req.body = undefined;
    next();
  });
}

const jsonParser = (limit: number | string, strict: boolean) => express.json({ limit, strict, verify: wellEncoded });

/**
 * The REST body reader (for paths under `/api`). `uploads` lists the routes that read a multipart
 * body (multer reads it in the route); there a multipart body passes, everywhere else it is 415.
 */
export function restBodyParsers(uploads: Array<{ method: HttpMethod; path: string }>): Router {
  const router = express.Router();
  const takesMultipart = Symbol('takesMultipart');
  for (const u of uploads) {
    router[u.method.toLowerCase() as 'post'](u.path, (req: Request, _res: Response, next: NextFunction) => {
      (req as unknown as Record<symbol, boolean>)[takesMultipart] = true;
      next();
    });
  }
  const json = jsonParser('1mb', false);
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/api' && !req.path.startsWith('/api/')) return next();
    if (isJson(req)) return json(req, res, (err?: unknown) => (err ? next(err) : shallowEnough(req, res, next)));
    if (req.is('multipart/form-data') && (req as unknown as Record<symbol, boolean>)[takesMultipart]) return next();
    refuseUnlessEmpty(req, res, next, (req as unknown as Record<symbol, boolean>)[takesMultipart] ? 'multipart/form-data' : 'application/json');
  });
  return router;
}

/** The GraphQL body reader: JSON only (Apollo reads nothing else), with room for `limit` bytes. */
export function graphqlBodyParser(limit: number): RequestHandler {
  const json = jsonParser(limit, true);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isJson(req)) return refuseUnlessEmpty(req, res, next, 'application/json');
    json(req, res, (err?: unknown) => (err ? next(err) : shallowEnough(req, res, next)));
  };
}
