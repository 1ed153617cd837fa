import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { subscribe, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type multerType from 'multer';
import { AsyncResource } from 'node:async_hooks';
import { badRequest, DomainError } from '../domain/shared/errors';
import { errorBody, httpStatusOf } from '../domain/shared/error-table';
import { anonymous } from '../domain/auth/actor';
import { checkCredential } from '../domain/access/credential';
import { rootFieldRoles } from '../graphql/auth-checker';
import { clientOf, createContext } from '../graphql/context';
import { dataExceptionOf, toDomainError, transientDatabaseErrorOf } from '../graphql/errors';
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../domain/shared/validation';
import type { Logger } from '../logger';
import type { Services } from '../services';
import { API_DOCS_PATHS, apiDocsRouter } from './openapi/api-docs.routes';
import type { RowDispatch } from './fast-lane';
import { RouteLookup, type LookupEntry } from './route-lookup';
import { loadOperations, type LoadedOperation } from './operations';
import { checkPart } from './request-schema';
import type { RestRequest, RouteDef } from './route-table';
import { routeTables } from './routes';
import { operationExecutor } from './operation-executor';
import { sendJson } from './send-json';

export function sendError(res: Response, err: DomainError): void {
  if (res.headersSent) return;
  // A domain-level limit (such as sign-in codes per address) tells the client when to retry, like the request limiter.
  if (err.code === 'RATE_LIMITED' && typeof err.extra.retryAfter === 'number') res.setHeader('Retry-After', String(err.extra.retryAfter));
  res.status(httpStatusOf[err.code]).json(errorBody(err));
}

function requestLogger(req: Request, fallback: Logger): Logger {
  return ((req as unknown as { log?: Logger }).log ?? fallback) as Logger;
}

export interface RestRoutes {
  /** Every row on an Express router, after the API reference's routes. */
  router: Router;
  /**
   * The same rows' handlers by method and path, for the fast lane (src/rest/fast-lane.ts); the
   * API reference's paths are entries that leave a request to `router`.
   */
  lookup: RouteLookup<RowDispatch>;
}

/**
 * Mounts every route table row on an Express router. Each row runs its named operation with
 * in this process, against the same schema GraphQL clients use: compiled once by graphql-jit,
 * with graphql-js where that cannot answer as graphql-js does (operation-executor.ts, ADR 0130).
 */
export function createRestRouter(schema: GraphQLSchema, services: Services): RestRoutes {
  const operations = loadOperations(schema);
  const executeOperation = operationExecutor(schema, { check: services.config.REST_EXECUTOR_CHECK });
  const fieldRoles = rootFieldRoles();
  const router = express.Router();
  router.use(apiDocsRouter(schema));
  const entries: Array<LookupEntry<RowDispatch>> = Object.values(API_DOCS_PATHS).map((path) => ({ method: 'GET', path, target: null }));
  // multer loads on the first upload, not at startup: few requests carry a file.
  let uploads: ReturnType<typeof multerType> | null = null;
  const uploadParser = (field: string): express.RequestHandler => {
    let parse: express.RequestHandler | null = null;
    return (req, res, next) => {
      if (!uploads) {
        const multer = require('multer') as typeof multerType;
        uploads = multer({ storage: multer.memoryStorage(), limits: { fileSize: services.config.UPLOAD_MAX_BYTES, files: 1 } });
      }
      parse ??= uploads.single(field);
      parse(req, res, next);
    };
  };

  for (const route of routeTables.flat()) {
    const op = operations.get(route.operation);
    if (!op) throw new Error(`Route ${route.method} ${route.path} names unknown operation ${route.operation}`);
    if ((op.kind === 'subscription') !== Boolean(route.stream)) {
      throw new Error(`Route ${route.method} ${route.path}: a subscription needs a stream row, and a stream row a subscription`);
    }
    const access = accessOf(op, fieldRoles);
    const handlers: express.RequestHandler[] = [];
    // Credentials first: a caller without one learns 401 before anything about its body.
    if (access) handlers.push((req, res, next) => guard(req, res, next, access));
    if (route.upload) {
      const parse = uploadParser(route.upload.field);
      // Limits come back as MulterError (LIMIT_*); anything else the parser raises is a
      // malformed multipart body (no boundary, a cut-off part), which the client sent.
      // multer finishes on the socket's events, outside the request's async context (its
      // EntityManager among it); the callback is bound back to the request's context.
      handlers.push((req, res, next) =>
        parse(
          req,
          res,
          AsyncResource.bind((err?: unknown) => {
            if (!err || (err as { code?: string }).code?.startsWith('LIMIT_')) return next(err);
            sendError(res, badRequest([{ path: route.upload!.field, message: `Malformed multipart body: ${(err as Error).message}` }]));
          }),
        ),
      );
    }
    handlers.push((req, res, next) => {
      runRoute(schema, executeOperation, services, route, op, access, req, res).catch(next);
    });
    // What router.get(path, ...handlers) does, keeping the Route the fast lane sets as `req.route`.
    const expressRoute = router.route(route.path);
    expressRoute[route.method.toLowerCase() as 'get'](...handlers);
    entries.push({ method: route.method, path: route.path, target: { route: expressRoute, handlers } });
  }
  return { router, lookup: new RouteLookup(entries) };
}

/** The roles an operation's root fields require together; null when every one is public. */
function accessOf(op: LoadedOperation, fieldRoles: Map<string, string[] | null>): string[] | null {
  const needed = op.rootFields.map((f) => fieldRoles.get(f) ?? null).filter((r): r is string[] => r !== null);
  return needed.length ? [...new Set(needed.flat())] : null;
}

function guard(req: Request, res: Response, next: NextFunction, roles: string[]): void {
  const auth = req.auth ?? anonymous;
  try {
    checkCredential(auth.actor, auth.problem, roles);
  } catch (err) {
    if (err instanceof DomainError) return sendError(res, err);
    throw err;
  }
  next();
}

export function toRestRequest(req: Request): RestRequest {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
  const f = (req as Request & { file?: Express.Multer.File }).file;
  return {
    params: req.params as Record<string, string>,
    query: req.query as Record<string, unknown>,
    body,
    headers: req.headers,
    file: f ? { buffer: f.buffer, mimetype: f.mimetype, originalname: f.originalname, size: f.size } : undefined,
  };
}

async function runRoute(
  schema: GraphQLSchema,
  executeOperation: ReturnType<typeof operationExecutor>,
  services: Services,
  route: RouteDef,
  op: LoadedOperation,
  access: string[] | null,
  req: Request,
  res: Response,
): Promise<void> {
  const logger = requestLogger(req, services.logger);
  const r = toRestRequest(req);
  const bodyRefusal = (details: Array<{ path: string; message: string }>) =>
    route.invalidBody ? new DomainError('BAD_REQUEST', route.invalidBody, { details }) : badRequest(details);
  if (req.body !== undefined && req.body !== null && (typeof req.body !== 'object' || Array.isArray(req.body)) && req.method !== 'GET') {
    return sendError(res, bodyRefusal([{ path: '', message: 'The body must be a JSON object' }]));
  }
  const unstorableInBody = route.invalidBody ? unstorableTextPath(r.body) : null;
  if (unstorableInBody !== null) return sendError(res, bodyRefusal([{ path: unstorableInBody, message: UNSTORABLE_TEXT_MESSAGE }]));
  // The row's schema decides the JSON types before GraphQL sees anything, so GraphQL's list
  // coercion never turns a string into the array the document asks for.
  if (route.request?.query) {
    const checked = checkPart(route.request.query, r.query, 'query');
    if (!checked.ok) return sendError(res, badRequest(checked.details));
    r.query = checked.value;
  }
  if (route.request?.body && !route.upload) {
    const checked = checkPart(route.request.body, r.body, 'body');
    if (!checked.ok) return sendError(res, bodyRefusal(checked.details));
    r.body = checked.value;
  }
  let variables: Record<string, unknown>;
  try {
    variables = route.variables ? route.variables(r) : {};
  } catch (err) {
    if (err instanceof DomainError) return sendError(res, err);
    throw err;
  }
  // Stopped here with its path rather than by the database after the work is done.
  const unstorable = unstorableTextPath(variables, '', route.textReadByDomain);
  if (unstorable !== null) return sendError(res, badRequest([{ path: unstorable.replace(/^input\.?/, ''), message: UNSTORABLE_TEXT_MESSAGE }]));
  const contextOf = () => {
    const context = createContext(services, req.auth ?? anonymous, String(req.id ?? ''), logger, clientOf(req), req.receivedAt);
    // The guard above accepted the credential for these roles (a route without one has null).
    context.credentialAccepted = access;
    return context;
  };
  if (route.stream) {
    const subscribed = await subscribe({ schema, document: op.document, operationName: op.name, variableValues: variables, contextValue: contextOf() });
    if (!isAsyncIterable(subscribed)) return sendError(res, toDomainError(subscribed.errors ?? [], logger));
    return route.stream(res, subscribed, r, services);
  }
  const result = await executeOperation(op, contextOf, variables);
  if (result.errors?.length) return sendError(res, toDomainError(result.errors, logger));
  const data = (result.data ?? {}) as Record<string, any>;
  if (route.send) return route.send(res, data, r, services);
  const body = route.body ? route.body(data, r) : route.bodyAt !== undefined ? valueAt(data, route.bodyAt) : data[Object.keys(data)[0]];
  sendJson(req, res, route.status ?? 200, body ?? {});
}

/** The value at a dotted path of response keys (`''`: the data itself). */
function valueAt(data: Record<string, any>, path: string): unknown {
  return path ? path.split('.').reduce<any>((v, key) => v?.[key], data) : data;
}

function isAsyncIterable(v: unknown): v is AsyncIterableIterator<ExecutionResult> {
  return typeof v === 'object' && v !== null && Symbol.asyncIterator in v;
}

/** Errors Express or its body parsers raise before a route runs, as documented JSON. */
export function restErrorHandler(logger: Logger) {
  // Express recognises error handlers by their four parameters.
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (err instanceof DomainError) return sendError(res, err);
    const refused = dataExceptionOf(err) ?? transientDatabaseErrorOf(err);
    if (refused) return sendError(res, refused);
    const e = err as { type?: string; status?: number; code?: string; message?: string; field?: string };
    if (e.type === 'entity.parse.failed') {
      return sendError(res, new DomainError('BAD_REQUEST', 'invalid_json', { details: [{ path: '', message: 'The body is not valid JSON' }] }));
    }
    if (e.type === 'entity.too.large' || e.code === 'LIMIT_FILE_SIZE') {
      return sendError(res, new DomainError('PAYLOAD_TOO_LARGE', 'payload_too_large', { detail: 'The request body is too large' }));
    }
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      return sendError(res, new DomainError('UNSUPPORTED_MEDIA_TYPE', 'unsupported_media_type', { detail: e.message }));
    }
    if (typeof e.code === 'string' && e.code.startsWith('LIMIT_')) {
      return sendError(res, new DomainError('BAD_REQUEST', 'invalid_request', { details: [{ path: e.field ?? '', message: e.message ?? 'Invalid upload' }] }));
    }
    if (e.status && e.status >= 400 && e.status < 500) {
      return sendError(res, new DomainError('BAD_REQUEST', 'invalid_request', { details: [{ path: '', message: e.message ?? 'Bad request' }] }));
    }
    requestLogger(req, logger).error({ err }, 'unhandled error');
    if (!res.headersSent) res.status(500).json({ error: 'internal' });
  };
}
