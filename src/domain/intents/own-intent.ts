import type { EntityManager } from '@mikro-orm/postgresql';
import type { Intent } from '../../entities/intent.entity';
import { intentById } from './intents.repository';
import { resolveAccessible } from '../access/require-access';
import { intentNotFound } from './intent.errors';

/** The id of the user's intent named by a uuid or short id; 404 for anyone else's or an unknown one. */
export async function requireOwnIntentId(em: EntityManager, userId: string, idOrShortId: string): Promise<string> {
  return resolveAccessible(em, { userId }, 'intent.own', idOrShortId);
}

/** The user's intent named by a uuid or short id (every area that takes an intent id uses this). */
export async function requireOwnIntent(em: EntityManager, userId: string, idOrShortId: string): Promise<Intent> {
  const intent = await intentById(em, await requireOwnIntentId(em, userId, idOrShortId));
  if (!intent) throw intentNotFound();
  return intent;
}
