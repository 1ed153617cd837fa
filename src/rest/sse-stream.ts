import type { Request, Response } from 'express';
import { subscribe, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { anonymous } from '../auth/actor';
import { DomainError } from '../domain/shared/errors';
import { clientOf, createContext } from '../graphql/context';
import { toDomainError } from '../graphql/errors';
import type { Logger } from '../logger';
import type { Services } from '../services';
import type { LoadedOperation } from './operations';
import type { RouteDef } from './route-table';
import { sendError, toRestRequest } from './router';

/** Bytes a client may leave unread before it is cut off (it can reconnect). */
const MAX_UNREAD_BYTES = 1024 * 1024;

function requestLogger(req: Request, fallback: Logger): Logger {
  return ((req as unknown as { log?: Logger }).log ?? fallback) as Logger;
}

const isStream = (r: unknown): r is AsyncGenerator<ExecutionResult> => !!r && typeof (r as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';

/**
 * Serves a stream row: runs its subscription in process and writes each event as one SSE
 * `data:` frame. A refusal before the stream opens (401, 403, 404) is an ordinary JSON
 * answer. Comments keep idle connections open; a client that stops reading is cut off
 * rather than buffered without bound; shutdown ends open streams (services.streamClosers).
 */
export async function runStreamRoute(schema: GraphQLSchema, services: Services, route: RouteDef, op: LoadedOperation, req: Request, res: Response): Promise<void> {
  const logger = requestLogger(req, services.logger);
  let variables: Record<string, unknown>;
  try {
    variables = route.variables ? route.variables(toRestRequest(req)) : {};
  } catch (err) {
    if (err instanceof DomainError) return sendError(res, err);
    throw err;
  }
  const contextValue = createContext(services, req.auth ?? anonymous, String(req.id ?? ''), logger, clientOf(req));
  const result = await subscribe({ schema, document: op.document, operationName: op.name, variableValues: variables, contextValue });
  if (!isStream(result)) return sendError(res, toDomainError(result.errors ?? [], logger));

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(': open\n\n');

  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    services.streamClosers.delete(end);
    await result.return?.(undefined);
    if (!res.writableEnded) res.end();
  };
  const keepalive = setInterval(() => {
    if (!res.writableEnded) res.write(': keepalive\n\n');
  }, services.config.EVENTS_KEEPALIVE_MS);
  services.streamClosers.add(end);
  req.on('close', () => void end());

  try {
    for await (const event of result) {
      if (ended) break;
      if (event.errors?.length) {
        logger.warn({ errors: event.errors.map((e) => e.message) }, 'stream event failed');
        continue;
      }
      res.write(`data: ${JSON.stringify(route.stream!.frame((event.data ?? {}) as Record<string, any>))}\n\n`);
      if (res.writableLength > MAX_UNREAD_BYTES) {
        logger.info({ unread: res.writableLength }, 'stream client too slow; cut off');
        break;
      }
    }
  } finally {
    await end();
  }
}
