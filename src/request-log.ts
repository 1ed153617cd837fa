import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Level } from 'pino';
import type { Options } from 'pino-http';
import type { Logger } from './logger';

/** The pino-http options this middleware honours, with the same meaning. */
export type RequestLogOptions = Required<Pick<Options, 'genReqId' | 'customLogLevel'>> &
  Pick<Options, 'serializers'> & {
    logger: Logger;
    autoLogging?: { ignore?: (req: IncomingMessage) => boolean };
  };

const { chindingsSym } = pino.symbols;
const lazySym = Symbol('request-log.lazy-bindings');

interface LazyBindings {
  bindings: () => Record<string, unknown>;
  chindings?: string;
}

/**
 * Makes children of `base` bound to `bindings()`, which are serialized only when a line is
 * written: pino serializes a child's bindings when the child is made, and a request's (headers
 * included) cost more than everything else this middleware does. The children share one
 * prototype whose pino bindings slot (exposed as pino.symbols) is an accessor, so making one is
 * an Object.create; grandchildren (`log.child(...)`) read it and keep their own.
 */
function lazyChildren(base: Logger): (bindings: () => Record<string, unknown>) => Logger {
  const proto = base.child({});
  Object.defineProperty(proto, chindingsSym, {
    configurable: true,
    get(this: Record<symbol, LazyBindings>) {
      const lazy = this[lazySym];
      return (lazy.chindings ??= (base.child(lazy.bindings()) as unknown as Record<symbol, string>)[chindingsSym]);
    },
    // pino assigns the slot on a grandchild (Object.create of a child): give it its own value.
    set(this: object, value: string) {
      Object.defineProperty(this, chindingsSym, { value, writable: true, configurable: true, enumerable: true });
    },
  });
  return (bindings) => {
    const child = Object.create(proto) as Logger & Record<symbol, LazyBindings>;
    child[lazySym] = { bindings };
    return child;
  };
}

/**
 * Request ids and request logs as pino-http writes them (same options, same lines: `req` bound
 * to every line logged during the request, `request completed` / `request errored` with `res`
 * and `responseTime` at the level `customLogLevel` picks), at almost no cost when nothing is
 * written: the request is serialized only for a line that is.
 */
export function requestLog(opts: RequestLogOptions) {
  const std = pino.stdSerializers;
  const custom = opts.serializers ?? {};
  const base = opts.logger.child(
    {},
    {
      serializers: {
        req: std.wrapRequestSerializer((custom.req as (r: pino.SerializedRequest) => pino.SerializedRequest) ?? ((r) => r)),
        res: std.wrapResponseSerializer((custom.res as (r: pino.SerializedResponse) => pino.SerializedResponse) ?? ((r) => r)),
        err: std.wrapErrorSerializer((custom.err as (e: pino.SerializedError) => pino.SerializedError) ?? ((e) => e)),
      },
    },
  );
  const ignore = opts.autoLogging?.ignore;
  const childOf = lazyChildren(base);

  return function requestLogMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    req.id = opts.genReqId(req, res);
    const log = childOf(() => ({ req }));
    req.log = log;
    res.log = log;
    if (!ignore?.(req)) {
      const start = Date.now();
      const done = (err?: Error) => {
        res.off('close', done);
        res.off('finish', done);
        res.off('error', done);
        const level = opts.customLogLevel(req, res, err) as Level | 'silent';
        if (level === 'silent' || !log.isLevelEnabled(level)) return;
        const responseTime = Date.now() - start;
        if (err || res.statusCode >= 500) {
          log[level]({ res, err: err ?? new Error(`failed with status code ${res.statusCode}`), responseTime }, 'request errored');
        } else {
          log[level]({ res, responseTime }, 'request completed');
        }
      };
      res.on('close', done);
      res.on('finish', done);
      res.on('error', done);
    }
    next();
  };
}
