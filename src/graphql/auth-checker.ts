import { getMetadataStorage, type AuthChecker } from 'type-graphql';
import { checkCredential } from '../domain/access/credential';
import type { GraphQLContext } from './context';

/**
 * `@Authorized()` and `@Authorized('session')` apply the credential rule of
 * src/domain/access/credential.ts; its failures are domain errors, so both transports report
 * them the same way. A REST request's guard has applied it already (`credentialAccepted`), so
 * the credential is checked once per request.
 */
export const authChecker: AuthChecker<GraphQLContext> = ({ context }, roles) => {
  const accepted = context.credentialAccepted;
  if (accepted && roles.every((role) => accepted.includes(role))) return true;
  checkCredential(context.actor, context.authProblem, roles);
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
