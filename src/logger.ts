import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths that may carry credentials; pino replaces them before a line is written. */
const redact = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.token',
  '*.password',
  '*.secret',
  '*.key',
  // Stream routes take credentials in the query string (?token=, ?session=).
  'req.query.token',
  'req.query.session',
];

/** Query parameters that carry credentials; their values never reach a log line. */
const SECRET_PARAMS = /([?&](?:token|session)=)[^&#]*/gi;

/** A request URL with credential parameters replaced (pino-http logs `req.url`). */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PARAMS, '$1[redacted]');
}

/** pino-http serializers: the request URL loses its credential parameters. */
export const requestSerializers = { req: (r: { url?: string }) => ({ ...r, url: redactUrl(r.url) }) };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'intro-match' } };
  return destination ? pino(options, destination) : pino(options);
}
