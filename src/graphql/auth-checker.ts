import type { AuthChecker } from 'type-graphql';
import { forbidden, unauthenticated } from '../domain/shared/errors';
import type { GraphQLContext } from './context';

/**
 * `@Authorized()` needs any credential; `@Authorized('session')` refuses API keys (core-api.md,
 * Authentication 4). Failures throw domain errors so both transports report them the same way.
 */
export const authChecker: AuthChecker<GraphQLContext> = ({ context }, roles) => {
  const { actor } = context;
  if (!actor) throw unauthenticated(context.authProblem ?? undefined);
  if (roles.includes('session') && actor.credential === 'apiKey') {
    throw forbidden('This route needs a signed-in session; an API key cannot use it');
  }
  return true;
};
