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

/**
 * A child of `base` bound to `bindings()`, which are serialized only when a line is written:
 * pino serializes a child's bindings when the child is made, and the request's (headers
 * included) cost more than everything else this middleware does. The bindings string is set
 * on first read of pino's own slot (exposed as pino.symbols) and inherited by grandchildren.
 */
function lazyChild(base: Logger, bindings: () => Record<string, unknown>): Logger {
  const child = base.child({});
  let chindings: string | undefined;
  Object.defineProperty(child, chindingsSym, {
    configurable: true,
    get: () => (chindings ??= (base.child(bindings()) as unknown as Record<symbol, string>)[chindingsSym]),
    // pino assigns the slot on a grandchild (Object.create of this one): give it its own value.
    set(this: object, value: string) {
      Object.defineProperty(this, chindingsSym, { value, writable: true, configurable: true, enumerable: true });
    },
  });
  return child;
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

  return function requestLogMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    req.id = opts.genReqId(req, res);
    const log = lazyChild(base, () => ({ req }));
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
