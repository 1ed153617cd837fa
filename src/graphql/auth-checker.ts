import { getMetadataStorage, type AuthChecker } from 'type-graphql';
import type { Actor } from '../auth/actor';
import { forbidden, unauthenticated } from '../domain/shared/errors';
import type { GraphQLContext } from './context';

/**
 * `@Authorized()` needs any credential; `@Authorized('session')` refuses API keys (core-api.md,
 * Authentication 4). Failures throw domain errors so both transports report them the same way.
 */
export function checkAccess(actor: Actor | null, authProblem: string | null, roles: readonly string[]): void {
  if (!actor) throw unauthenticated(authProblem ?? undefined);
  if (roles.includes('session') && actor.credential === 'apiKey') {
    throw forbidden('This route needs a signed-in session; an API key cannot use it');
  }
}

export const authChecker: AuthChecker<GraphQLContext> = ({ context }, roles) => {
  checkAccess(context.actor, context.authProblem, roles);
  return true;
};

/**
 * The roles each root Query/Mutation/Subscription field requires (null: public), read from type-graphql's
 * metadata after the schema is built. The REST layer checks them before variables are
 * coerced, so a request without a credential learns 401 before any 400 about its body.
 */
export function rootFieldRoles(): Map<string, string[] | null> {
  const storage = getMetadataStorage();
  const byField = new Map<string, string[] | null>();
  for (const r of [...storage.queries, ...storage.mutations, ...storage.subscriptions]) {
    const field = storage.authorizedFields.find((a) => a.target === r.target && a.fieldName === r.methodName);
    const cls = storage.authorizedResolver.find((a) => a.target === r.target);
    const roles = field?.roles ?? cls?.roles;
    byField.set(r.schemaName, roles ? roles.map(String) : null);
  }
  return byField;
}
