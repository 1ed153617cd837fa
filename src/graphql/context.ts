import type { IncomingHttpHeaders } from 'node:http';
import type { Actor } from '../domain/auth/actor';
import type { Logger } from '../logger';
import type { Services } from '../services';
import { Loaders } from './loaders';

/** Where a request came from, as the transport saw it; recorded on the sessions it creates. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const unknownClient: ClientInfo = { ip: '', userAgent: '' };

/** An Express request (whose `ip` honours TRUST_PROXY) or the raw upgrade request of a WebSocket. */
export function clientOf(req: { ip?: string; headers: IncomingHttpHeaders; socket?: { remoteAddress?: string } }): ClientInfo {
  const ua = req.headers['user-agent'];
  // Only sign-ins read the address: Express derives it per read (the proxy settings and
  // headers), so it is worked out once, when first asked for.
  let ip: string | undefined;
  return {
    get ip() {
      return (ip ??= req.ip ?? req.socket?.remoteAddress ?? '');
    },
    userAgent: typeof ua === 'string' ? ua : '',
  };
}

/** What every resolver receives. Built per HTTP request, per REST call and per WebSocket operation. */
export interface GraphQLContext {
  actor: Actor | null;
  /** Why a presented credential was refused; authenticated operations answer 401 with it. */
  authProblem: string | null;
  services: Services;
  requestId: string;
  logger: Logger;
  loaders: Loaders;
  client: ClientInfo;
  /**
   * When the request (or WebSocket operation) reached the server: what a client could have
   * seen is what had committed by then (a negotiation turn that lost a race is told so).
   */
  receivedAt: Date;
  /**
   * Set by the REST router when its guard has already applied the credential rule to this
   * request, for these roles (every root field's of the operation), before the body was read:
   * `@Authorized` then does not apply it a second time. Null for GraphQL clients.
   */
  credentialAccepted: readonly string[] | null;
}

export function createContext(
  services: Services,
  auth: { actor: Actor | null; problem: string | null },
  requestId: string,
  logger: Logger,
  client: ClientInfo = unknownClient,
  receivedAt: Date = new Date(),
): GraphQLContext {
  return {
    actor: auth.actor,
    authProblem: auth.problem,
    services,
    requestId,
    logger,
    loaders: new Loaders(services),
    client,
    receivedAt,
    credentialAccepted: null,
  };
}
