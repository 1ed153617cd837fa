import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

export type { Logger };

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

/** `destination` defaults to standard output; tests pass a stream to read what was logged. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'intro-match' } };
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
