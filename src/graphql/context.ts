import type { Actor } from '../auth/actor';
import type { Logger } from '../logger';
import type { Services } from '../services';
import { Loaders } from './loaders';

/** What every resolver receives. Built per HTTP request, per REST call and per WebSocket operation. */
export interface GraphQLContext {
  actor: Actor | null;
  /** Why a presented credential was refused; authenticated operations answer 401 with it. */
  authProblem: string | null;
  services: Services;
  requestId: string;
  logger: Logger;
  loaders: Loaders;
}

export function createContext(
  services: Services,
  auth: { actor: Actor | null; problem: string | null },
  requestId: string,
  logger: Logger,
): GraphQLContext {
  return {
    actor: auth.actor,
    authProblem: auth.problem,
    services,
    requestId,
    logger,
    loaders: new Loaders(services),
  };
}
