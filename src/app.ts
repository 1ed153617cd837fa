import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import { RequestContext } from '@mikro-orm/core';
import { withLazyRequestContext } from './db/lazy-request-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { execute, GraphQLError, parse, specifiedRules, subscribe, validate, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { anonymous } from './domain/auth/actor';
import { DomainError } from './domain/shared/errors';
import { bearerFrom, type Credentials } from './domain/auth/authenticate';
import { withRequestLogger } from './logger';
import { createExpressServer } from './http/express-server';
import { requestLog } from './request-log';
import { clientOf, createContext, type GraphQLContext } from './graphql/context';
import { Loaders } from './graphql/loaders';
import { formatError } from './graphql/errors';
import { clientDocumentRules, loadTrustedOperations, trustedOperationsGate, UNTRUSTED_OPERATION } from './graphql/limits';
import { buildAppSchema } from './graphql/schema';
import { createRateLimiter } from './rest/rate-limit';
import { graphqlBodyParser, restBodyParsers, tooDeep } from './rest/body-parsers';
import { restFastLane, type MountedHandler } from './rest/fast-lane';
import { weakEtag } from './http/etag';
import { createRestRouter, restErrorHandler, sendError } from './rest/router';
import { routeTables } from './rest/routes';
import { openSseStreams } from './rest/sse-writer';
import { whenBody } from './rest/when-body';
import { corsMiddleware, webSocketOriginAllowed } from './http/cors';
import { Metrics } from './http/metrics';
import { mountPages } from './pages/pages';
import type { Services } from './services';

export interface AppServer {
  app: Express;
  httpServer: Server;
  schema: GraphQLSchema;
  /** Stops accepting, lets running requests finish, closes WebSockets and streams. */
  close(): Promise<void>;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Where a session may ride in the query string: the event stream only (core-api.md,
 * Authentication 1), because EventSource cannot set headers. Anywhere else a token in a URL
 * would end up in logs, proxies and browser history, so it is not read.
 */
const QUERY_TOKEN_PATHS = new Set(['/api/events']);

/** Query parameters that carry credentials (a device's user code among them): kept out of every log line. */
const SECRET_QUERY_PARAMS = ['token', 'session', 'code'];

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of SECRET_QUERY_PARAMS) {
    if (params.has(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

function credentialsOf(req: Request): Credentials {
  // `req.path` is relative to the middleware's mount point; the stream is matched on the full path.
  const token = QUERY_TOKEN_PATHS.has(`${req.baseUrl}${req.path}`) && typeof req.query?.token === 'string' ? req.query.token : null;
  const apiKey = req.headers['x-api-key'];
  return {
    bearer: bearerFrom(req.headers.authorization) ?? token,
    apiKey: Array.isArray(apiKey) ? apiKey[0] : apiKey ?? null,
  };
}

/** graphql-ws clients send the same credentials as connection params. */
function credentialsOfParams(params: Record<string, unknown> | undefined): Credentials {
  const p = params ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    bearer: bearerFrom(str(p.authorization) ?? str(p.Authorization)) ?? str(p.token),
    apiKey: str(p['x-api-key']) ?? str(p.apiKey),
  };
}

export async function createAppServer(services: Services): Promise<AppServer> {
  const { config, logger, orm } = services;
  const schema = await buildAppSchema();
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'extended');
  app.set('etag', weakEtag);
  const httpServer = createExpressServer(app);
  // Filled in below; the gauge reads it when scraped.
  let wsServer: WebSocketServer | null = null;
  const metrics = new Metrics(
    {
      openStreams: () => openSseStreams(services.streamClosers),
      openSockets: () => wsServer?.clients.size ?? 0,
      queueDepth: () => services.jobs.depth(),
      embeddingBacklog: async () => ({ intents: await services.matching.indexer.backlog(), items: await services.legacy.indexer.backlog() }),
    },
    logger,
  );

  // The REST fast lane comes first of all; it is made below, once the handlers it runs are.
  let restLane: RequestHandler = (_req, _res, next) => next();
  app.use((req: Request, res: Response, next: NextFunction) => restLane(req, res, next));

  // Once shutdown begins, every answer says `Connection: close`: a kept-alive client then opens a
  // new connection (to another instance) instead of sending its next request into a socket that
  // is about to be closed under it.
  let closing = false;
  const answering = new Set<Response>();
  const trackAnswer = (_req: Request, res: Response, next: NextFunction) => {
    if (closing) res.setHeader('Connection', 'close');
    answering.add(res);
    res.once('close', () => answering.delete(res));
    next();
  };

  // First of all, before anything that may wait (the database pool, the body): a negotiation turn
  // compares it with the turns that committed since (docs/api-choices.md, "Negotiation turns, lists and frames").
  const stampReceived = (req: Request, _res: Response, next: NextFunction) => {
    req.receivedAt = new Date();
    next();
  };
  const logRequest = requestLog({
    logger,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
    serializers: {
      req: (req: { url?: string; query?: Record<string, unknown> }) => {
        if (req.url) req.url = redactUrl(req.url);
        if (req.query) for (const name of SECRET_QUERY_PARAMS) if (name in req.query) req.query = { ...req.query, [name]: '[redacted]' };
        return req;
      },
    },
    // Successes are debug lines unless LOG_REQUESTS asks for every request at info.
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 || config.LOG_REQUESTS ? 'info' : 'debug',
  });
  // Everything a request runs logs through its request logger (request id on every line).
  const requestLogger = (req: Request, _res: Response, next: NextFunction) => withRequestLogger(req.log, next);
  /** What every request runs first, in this order (the REST fast lane runs the same, ADR 0123). */
  const requestStart: RequestHandler[] = [trackAnswer, stampReceived, metrics.timer(), logRequest as RequestHandler, requestLogger];
  for (const handler of requestStart) app.use(handler);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks: Record<string, string> = {};
    let ok = true;
    for (const { name, check } of services.readiness) {
      try {
        await check();
        checks[name] = 'ok';
      } catch (err) {
        ok = false;
        checks[name] = 'unavailable';
        logger.warn({ err, check: name }, 'readiness check failed');
      }
    }
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', checks });
  });

  app.get('/metrics', metrics.handler(config.METRICS_TOKEN));

  // Every request below gets its own EntityManager (MikroORM's RequestContext), forked when the
  // request first asks for it (src/db/lazy-request-context.ts).
  const requestContext = (_req: Request, _res: Response, next: NextFunction) => withLazyRequestContext(orm.em, next);
  app.use(requestContext);

  // Browsers on the allowed origins, preflight included; before credentials, which a preflight never carries.
  const cors = config.CORS_ORIGINS.length ? corsMiddleware(config) : null;
  if (cors) app.use(['/api', '/graphql'], cors);

  const authenticate = (req: Request, _res: Response, next: NextFunction): void | Promise<void> => {
    const creds = credentialsOf(req);
    // Without a credential there is nothing to wait for.
    if (!creds.bearer && !creds.apiKey) {
      req.auth = anonymous;
      return next();
    }
    return services.authenticator.authenticate(orm.em as EntityManager, creds).then(
      (auth) => {
        req.auth = auth;
        next();
      },
      (err: unknown) => next(err),
    );
  };
  const rateLimit = createRateLimiter(config, services.rateBudgets);
  // Pages and their files come before the API's credentials and budgets (the web app calls the API like any client).
  mountPages(app, services);
  // GraphQL bodies are read before the rate limiter, which counts a query as a read and a
  // mutation as a write (src/rest/rate-limit.ts). Room for the uploadImage mutation:
  // UPLOAD_MAX_BYTES as base64 (4/3) plus the query. A graphql-ws message gets the same room.
  const graphqlBodyLimit = Math.max(1024 * 1024, Math.ceil((config.UPLOAD_MAX_BYTES * 4) / 3) + 64 * 1024);
  app.use('/graphql', graphqlBodyParser(graphqlBodyLimit));
  app.use(['/api', '/graphql'], authenticate, rateLimit);

  // Requests without a body (most GETs and DELETEs) skip body parsing altogether.
  const bodyParsers = whenBody(restBodyParsers(routeTables.flat().filter((r) => r.upload)));
  app.use(bodyParsers);
  const rest = createRestRouter(schema, services);
  app.use(rest.router);
  const apiNotFound = (req: Request, res: Response) => {
    // Through the error body like every refusal, so a path of many kilobytes does not come back whole (echo-cap.ts).
    sendError(res, new DomainError('NOT_FOUND', 'not_found', { detail: `No route ${req.method} ${req.originalUrl.split('?')[0]}` }));
  };
  app.use('/api', apiNotFound);
  const onError = restErrorHandler(logger);

  // A request for a REST row skips the layers above that cannot answer it (health, pages,
  // GraphQL, the other rows): this lane, first of all, runs what Express would run for it, in
  // the same order and mounts, and leaves every other request to the layers above (ADR 0123).
  const fastLaneSteps: MountedHandler[] = [
    ...requestStart.map((handler) => ({ handler })),
    { handler: requestContext },
    ...(cors ? [{ mount: '/api', handler: cors }] : []),
    { mount: '/api', handler: authenticate },
    { mount: '/api', handler: rateLimit },
    { handler: bodyParsers },
  ];
  restLane = restFastLane(rest.lookup, fastLaneSteps, onError, apiNotFound);

  const documentRules = clientDocumentRules(config);
  const trusted = loadTrustedOperations(config.GRAPHQL_TRUSTED_OPERATIONS);
  if (trusted) app.use('/graphql', trustedOperationsGate(trusted));

  const formatWsError = formatError(logger);
  wsServer = new WebSocketServer({
    // Upgrades are routed below rather than by `server`, so a failing listen (a port in use) is
    // reported once, by the start-up, and not again by the WebSocket server.
    noServer: true,
    // ws would otherwise take messages of up to 100 MiB; a larger one closes the socket (1009).
    maxPayload: graphqlBodyLimit,
    // A page on another site must not open a socket here in its visitor's name (browsers apply no CORS to WebSockets).
    verifyClient: (info, done) => (webSocketOriginAllowed(config, info.req) ? done(true) : done(false, 403, 'Origin not allowed')),
  });
  const sockets = wsServer;
  httpServer.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/graphql') {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });
  const wsCleanup = useServer<Record<string, unknown>, { ctx?: GraphQLContext }>(
    {
      schema,
      parse: (source) => parse(source, { maxTokens: config.GRAPHQL_MAX_TOKENS }),
      validate: (s, document) => validate(s, document, [...specifiedRules, ...documentRules]),
      onSubscribe: (_ctx, _id, payload) => {
        if (trusted && trusted.resolve(payload.query, payload.extensions) === null) {
          return [new GraphQLError(UNTRUSTED_OPERATION.message, { extensions: UNTRUSTED_OPERATION.extensions })];
        }
        // What the HTTP body reader refuses (src/rest/body-parsers.ts), refused here too: no
        // rule further in (nor JSON.stringify when the value is stored) walks variables nested
        // thousands deep.
        const refusal = tooDeep(payload.variables, 'The variables nest');
        if (refusal) return [new GraphQLError(refusal.error, { originalError: refusal })];
      },
      onConnect: async (ctx) => {
        const creds = credentialsOfParams(ctx.connectionParams);
        if (!creds.bearer && !creds.apiKey) {
          ctx.extra.ctx = createContext(services, anonymous, randomUUID(), logger, clientOf(ctx.extra.request));
          return true;
        }
        const auth = await RequestContext.create(orm.em, () => services.authenticator.authenticate(orm.em as EntityManager, creds));
        if (!auth.actor) return false;
        ctx.extra.ctx = createContext(services, auth, randomUUID(), logger, clientOf(ctx.extra.request));
        return true;
      },
      // Batch loaders cache per operation, like per HTTP request; each operation arrives now.
      context: (ctx) => ({ ...(ctx.extra.ctx as GraphQLContext), loaders: new Loaders(services), receivedAt: new Date() }),
      // Each operation runs with its own EntityManager, like an HTTP request.
      execute: (args) => RequestContext.create(orm.em, () => execute(args)),
      subscribe: (args) => RequestContext.create(orm.em, () => subscribe(args)),
      // Results carry the same error shape as over HTTP (domain code in extensions, unknown errors masked).
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors?.length ? { ...result, errors: result.errors.map((e) => formatWsError(e.toJSON(), e)) } : undefined,
      // Errors that end an operation (a document that does not validate, a refusal before it
      // runs, a stream that fails) have the same shape as over HTTP too: refused values are
      // quoted capped, and unknown errors are masked rather than sent with their message.
      onError: (_ctx, _id, _payload, errors) => {
        for (const e of errors) logger.debug({ err: e }, 'graphql-ws operation error');
        return errors.map((e) => formatWsError(e.toJSON(), e));
      },
    },
    wsServer,
    // A client that stops reading cannot answer the ping queued behind its unread frames: it is
    // cut off within EVENTS_SLOW_CLIENT_MS (a ping every half, half to answer), like an SSE
    // client. Memory needs no bound of its own: graphql-ws awaits each send's callback before
    // pulling the next result, so a subscription holds at most one unsent frame
    // (docs/adr/0052-event-stream.md).
    Math.max(50, Math.floor(config.EVENTS_SLOW_CLIENT_MS / 2)),
  );

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError: formatError(logger),
    introspection: config.GRAPHQL_INTROSPECTION,
    validationRules: documentRules,
    parseOptions: { maxTokens: config.GRAPHQL_MAX_TOKENS },
    // Trusted operations replace automatic persisted queries (any client could register any document).
    persistedQueries: trusted ? false : undefined,
    // Shutdown is ours (runtime.stop): Apollo would otherwise re-raise the signal and kill the process mid-drain.
    stopOnTerminationSignals: false,
    plugins: [
      // GET /graphql in a browser is the IDE this service serves (src/pages/graphql-ide.ts), never a page from a CDN.
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await wsCleanup.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();
  app.use(
    '/graphql',
    expressMiddleware(apollo, {
      context: async ({ req }) => createContext(services, req.auth ?? anonymous, String(req.id ?? ''), req.log ?? logger, clientOf(req), req.receivedAt),
    }),
  );

  app.use(onError);

  return {
    app,
    httpServer,
    schema,
    async close() {
      closing = true;
      // Requests already running whose answers have not started say it too.
      for (const res of answering) if (!res.headersSent) res.setHeader('Connection', 'close');
      for (const close of [...services.streamClosers]) {
        try {
          await close();
        } catch (err) {
          logger.warn({ err }, 'stream close failed');
        }
      }
      await apollo.stop();
    },
  };
}
