import type { Actor } from '../auth/actor';
import { forbidden, unauthenticated } from '../shared/errors';

/** Who an access check is about: an Actor, or a user id the caller already holds as `{ userId }`. */
export type Principal = Pick<Actor, 'userId'>;

/**
 * The signed-in caller, or the documented 401. Services that need a sign-in take a non-null
 * Actor; the transports hand them one with this (src/graphql/signed-in.ts), after
 * `checkCredential` has accepted the credential on every `@Authorized` field.
 */
export function requireActor(actor: Actor | null | undefined): Actor {
  if (!actor) throw unauthenticated();
  return actor;
}

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
