import cors from 'cors';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Config } from '../config';

/** Request headers a browser client needs: JSON bodies, both credentials, the stream's resume cursor, a request id. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-api-key', 'last-event-id', 'x-request-id'];
/** Response headers a browser client may read besides the safelisted ones. */
const EXPOSED_HEADERS = ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'location'];

function allows(config: Config, origin: string): boolean {
  return config.CORS_ORIGINS.includes('*') || config.CORS_ORIGINS.includes(origin);
}

/**
 * CORS for the API, GraphQL and the event stream (docs/adr/0100-cors-origins.md): the origins
 * in CORS_ORIGINS (default: WEB_APP_URL's) get the headers, preflight included; any other
 * origin gets none, so its browser keeps the answer from the page. Credentials are allowed
 * because the API authenticates by header only: no cookie of the service opens /api or /graphql.
 */
export function corsMiddleware(config: Config): RequestHandler {
  return cors({
    origin: (origin, done) => done(null, origin !== undefined && allows(config, origin) ? origin : false),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}

/**
 * Whether a WebSocket upgrade may proceed. Browsers do not apply CORS to WebSockets, so the
 * server checks the Origin itself: none (a program, not a page), the service's own pages (the
 * GraphQL IDE), PUBLIC_URL's origin, or an allowed origin.
 */
export function webSocketOriginAllowed(config: Config, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (allows(config, origin)) return true;
  if (origin === new URL(config.PUBLIC_URL).origin) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
