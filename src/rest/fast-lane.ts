import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { RouteLookup } from './route-lookup';

/** What the lane runs for one row: Express's Route object for it (`req.route`) and its handlers. */
export interface RowDispatch {
  route: unknown;
  handlers: RequestHandler[];
}

/** A middleware the app mounts, with the path it is mounted on (`/api`), or none for every path. */
export interface MountedHandler {
  mount?: string;
  handler: RequestHandler;
}

/**
 * The REST fast lane (ADR 0123): for a request the lookup finds a row for, runs the middleware
 * the Express app would run before the rows, in the app's order and with the same mounts, then
 * the row's handlers, without walking the app's other layers (pages, GraphQL, health, the other
 * 100 rows). Anything the lookup does not answer goes on through Express (`next()`), as does
 * nothing else: errors go to the app's error handler, as Express passes them there, and a chain
 * that runs out without answering gets the app's `/api` not-found answer.
 *
 * Express semantics kept for the handlers: `next()` runs the next one synchronously, `next(err)`
 * and a synchronous throw or a rejected returned promise go to `onError`; a handler mounted on a
 * path sees `req.baseUrl` as that path and `req.url` without it until it calls `next` (the
 * request log and the metrics' route label read them when the answer ends there); the row's
 * handlers see `req.params` and `req.route` as Express's route sets them.
 */
export function restFastLane(
  lookup: RouteLookup<RowDispatch>,
  before: MountedHandler[],
  onError: ErrorRequestHandler,
  notFound: RequestHandler,
): RequestHandler {
  return function restFastLaneDispatch(req: Request, res: Response, next: NextFunction): void {
    const hit = lookup.find(req.method, req.url);
    if (!hit) return next();
    const { route, handlers } = hit.target;
    const steps = before.length + handlers.length;
    let index = 0;
    let finished = false;
    const fail = (err: unknown) => {
      if (finished) return;
      finished = true;
      try {
        onError(err, req, res, next);
      } catch (thrown) {
        next(thrown);
      }
    };
    const step = (err?: unknown): void => {
      if (finished) return;
      if (err !== undefined && err !== null) return fail(err);
      if (index >= steps) {
        finished = true;
        notFound(req, res, next);
        return;
      }
      const i = index++;
      let handler: RequestHandler;
      let proceed: NextFunction = step as NextFunction;
      if (i < before.length) {
        const m = before[i];
        handler = m.handler;
        if (m.mount) {
          const { url, baseUrl } = req;
          req.baseUrl = baseUrl + m.mount;
          req.url = url.slice(m.mount.length) || '/';
          if (req.url[0] !== '/') req.url = `/${req.url}`;
          proceed = ((e?: unknown) => {
            req.url = url;
            req.baseUrl = baseUrl;
            step(e);
          }) as NextFunction;
        }
      } else {
        if (i === before.length) {
          req.params = hit.params;
          (req as Request & { route: unknown }).route = route;
        }
        handler = handlers[i - before.length];
      }
      try {
        const ret = handler(req, res, proceed) as unknown;
        if (ret && typeof (ret as Promise<unknown>).then === 'function') {
          (ret as Promise<unknown>).then(undefined, (e: unknown) => proceed(e ?? new Error('Rejected promise')));
        }
      } catch (e) {
        proceed(e);
      }
    };
    step();
  };
}
