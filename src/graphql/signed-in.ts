import type { Actor } from '../domain/auth/actor';
import { requireActor } from '../domain/access/credential';
import type { GraphQLContext } from './context';

/**
 * The caller, for services that need a sign-in (they take a non-null Actor and check no
 * credential themselves). On a field guarded by `@Authorized` the auth checker has already
 * accepted the credential, so this only narrows the type; on any other field it refuses with
 * the same 401 the services used to answer.
 */
export const signedIn = (ctx: GraphQLContext): Actor => requireActor(ctx.actor);
