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
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'intro-match' } });
}
