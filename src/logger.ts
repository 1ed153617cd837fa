import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger };

export type LogFormat = 'pretty' | 'json';

/** Paths that may carry credentials; pino replaces them before a line is written. */
const redact = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.token',
  'req.query.token',
  'req.query.session',
  '*.password',
  '*.secret',
  '*.key',
];

/** One line per request on a terminal: `GET /api/intents/:id 200 12ms` rather than the nested req/res objects. */
function prettyMessage(log: Record<string, any>, messageKey: string): string {
  const msg = String(log[messageKey] ?? '');
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  if (req?.method && res?.statusCode) return `${req.method} ${req.url} ${res.statusCode} ${log.responseTime ?? '?'}ms`;
  return msg;
}

/**
 * The process logger. `format` defaults to `pretty` when standard output is a terminal and
 * `json` otherwise (a file, a pipe, a container's log driver); `destination` defaults to
 * standard output, and tests pass a stream to read what was logged.
 */
export function createLogger(level: string, destination?: pino.DestinationStream, format?: LogFormat): Logger {
  const options = { level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'intro-match' } };
  const chosen = format ?? (!destination && process.stdout.isTTY ? 'pretty' : 'json');
  if (chosen === 'pretty') {
    // Loaded for a terminal only: a JSON log (services, tests, containers) never needs it.
    const pinoPretty = require('pino-pretty') as typeof PinoPretty;
    const stream = pinoPretty({
      destination: destination ?? 1,
      // Synchronous, so the last lines before an exit (a start-up failure, a shutdown) are not lost.
      sync: true,
      colorize: !destination && Boolean(process.stdout.isTTY),
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service,req,res,responseTime',
      messageFormat: prettyMessage,
    });
    return pino(options, stream);
  }
  return destination ? pino(options, destination) : pino(options);
}

const requestLoggers = new AsyncLocalStorage<Logger>();

/** Runs `fn` (and everything it starts) with `logger` as the current request's logger. */
export function withRequestLogger<T>(logger: Logger, fn: () => T): T {
  return requestLoggers.run(logger, fn);
}

/**
 * The logger of the request being handled (its lines carry the request id), or `fallback`
 * outside a request (start-up, background jobs).
 */
export function currentLogger(fallback: Logger): Logger {
  return requestLoggers.getStore() ?? fallback;
}
