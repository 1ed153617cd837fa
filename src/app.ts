import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { execute, subscribe, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { anonymous } from './auth/actor';
import { bearerFrom, type Credentials } from './auth/authenticate';
import { withRequestLogger } from './logger';
import { requestLog } from './request-log';
import { clientOf, createContext, type GraphQLContext } from './graphql/context';
import { Loaders } from './graphql/loaders';
import { formatError } from './graphql/errors';
import { buildAppSchema } from './graphql/schema';
import { createRateLimiter } from './rest/rate-limit';
import { createRestRouter, restErrorHandler } from './rest/router';
import { whenBody } from './rest/when-body';
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

/** Query parameters that carry credentials: kept out of every log line. */
const SECRET_QUERY_PARAMS = ['token', 'session'];

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
  const httpServer = createServer(app);

  // First of all, before anything that may wait (the database pool, the body): a negotiation turn
  // compares it with the turns that committed since (docs/adr/0074-turn-details.md).
  app.use((req: Request, _res: Response, next: NextFunction) => {
    req.receivedAt = new Date();
    next();
  });
  app.use(
    requestLog({
      logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      serializers: {
        req: (req: { url?: string; query?: Record<string, unknown> }) => {
          if (req.url) req.url = redactUrl(req.url);
          if (req.query) for (const name of SECRET_QUERY_PARAMS) if (name in req.query) req.query = { ...req.query, [name]: '[redacted]' };
          return req;
        },
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    }),
  );

  // Everything a request runs logs through its request logger (request id on every line).
  app.use((req: Request, _res: Response, next: NextFunction) => withRequestLogger(req.log, next));

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

  // Every request below gets its own EntityManager (MikroORM's RequestContext).
  app.use((_req: Request, _res: Response, next: NextFunction) => RequestContext.create(orm.em, next));

  const authenticate = async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const creds = credentialsOf(req);
      req.auth = creds.bearer || creds.apiKey ? await services.authenticator.authenticate(orm.em as EntityManager, creds) : anonymous;
      next();
    } catch (err) {
      next(err);
    }
  };
  const rateLimit = createRateLimiter(config, orm, logger);
  // GraphQL bodies are read before the rate limiter, which counts a query as a read and a
  // mutation as a write (src/rest/rate-limit.ts). Room for the uploadImage mutation:
  // UPLOAD_MAX_BYTES as base64 (4/3) plus the query.
  const graphqlJson = express.json({ limit: Math.max(1024 * 1024, Math.ceil((config.UPLOAD_MAX_BYTES * 4) / 3) + 64 * 1024) });
  app.use('/graphql', graphqlJson);
  app.use(['/api', '/graphql'], authenticate, rateLimit);

  app.use('/api', whenBody(express.json({ limit: '1mb', strict: false })));
  app.use(createRestRouter(schema, services));
  app.use('/api', (req: Request, res: Response) => {
    res.status(404).json({ error: 'not_found', detail: `No route ${req.method} ${req.originalUrl.split('?')[0]}` });
  });

  const formatWsError = formatError(logger);
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const wsCleanup = useServer<Record<string, unknown>, { ctx?: GraphQLContext }>(
    {
      schema,
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
      onError: (_ctx, _id, _payload, errors) => {
        for (const e of errors) logger.debug({ err: e }, 'graphql-ws operation error');
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
    introspection: true,
    // Shutdown is ours (runtime.stop): Apollo would otherwise re-raise the signal and kill the process mid-drain.
    stopOnTerminationSignals: false,
    plugins: [
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

  app.use(restErrorHandler(logger));

  return {
    app,
    httpServer,
    schema,
    async close() {
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
