import express, { type Express } from 'express';
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';

/**
 * An HTTP server for `app` whose requests and responses are made with Express's prototypes
 * already in place (docs/adr/0131-express-prototypes-at-construction.md).
 *
 * Express gives each request and response its methods by `Object.setPrototypeOf(req,
 * app.request)` (and the same for `res`) as the request arrives. In V8 that swap is far from
 * free: the object's hidden class changes under every inline cache that has seen it, and the
 * code that touches requests afterwards (Node's own HTTP internals included) keeps missing its
 * caches. On this machine an Express 5 app of five trivial middlewares served 8.5k requests per
 * second with the swap and 36–39k without it.
 *
 * Here the server constructs each request and response as an instance of a subclass whose
 * prototype *is* `app.request` (`app.response`): Express's swap then sets the prototype the
 * object already has, which V8 skips. Everything Express reads is where it was: the subclass
 * prototypes inherit Express's request and response methods and carry `app`, as the objects
 * Express makes per app do.
 */
export function createExpressServer(app: Express): Server {
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  for (const [cls, base, slot] of [
    [AppRequest, express.request, 'request'],
    [AppResponse, express.response, 'response'],
  ] as const) {
    Object.setPrototypeOf(cls.prototype, base);
    Object.defineProperty(cls.prototype, 'app', { configurable: true, enumerable: true, writable: true, value: app });
    (app as unknown as Record<string, object>)[slot] = cls.prototype;
  }
  return createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }, app);
}
