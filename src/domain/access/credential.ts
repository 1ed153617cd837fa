import type { Actor } from '../../auth/actor';
import { forbidden, unauthenticated } from '../shared/errors';

/** Who an access check is about: an Actor, or a user id the caller already holds as `{ userId }`. */
export type Principal = Pick<Actor, 'userId'>;

/**
 * The signed-in caller, or the documented 401. Resolvers guard with `@Authorized` and the REST
 * router with the same check (`checkCredential`); services call this so the domain stays honest
 * when it is reached another way (jobs, tests, a resolver that forgot its guard).
 */
export function requireActor<A extends Principal>(actor: A | null | undefined): A {
  if (!actor) throw unauthenticated();
  return actor;
}

/** The signed-in caller's user id (the 401 of `requireActor` otherwise). */
export const requireUser = (actor: Principal | null | undefined): string => requireActor(actor).userId;

/**
 * The credential rule of both transports: `@Authorized()` needs any credential,
 * `@Authorized('session')` refuses API keys (core-api.md, Authentication 4). `problem` says why a
 * presented credential was refused (expired, unknown), and is the 401's detail when set.
 */
export function checkCredential(actor: Actor | null, problem: string | null, roles: readonly string[]): Actor {
  if (!actor) throw unauthenticated(problem ?? undefined);
  if (roles.includes('session') && actor.credential === 'apiKey') {
    throw forbidden('This route needs a signed-in session; an API key cannot use it');
  }
  return actor;
}
