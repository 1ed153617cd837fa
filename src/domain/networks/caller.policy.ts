import type { Actor } from '../../auth/actor';
import { unauthenticated } from '../shared/errors';

/** The signed-in user's id; resolvers guard with @Authorized, this keeps the domain honest on its own. */
export function userIdOf(actor: Actor | null): string {
  if (!actor) throw unauthenticated();
  return actor.userId;
}
