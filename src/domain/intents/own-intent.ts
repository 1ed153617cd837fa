import type { EntityManager } from '@mikro-orm/postgresql';
import { Intent } from '../../entities/intent.entity';
import { resolveIdOrShortId } from '../shared/short-id';
import { intentNotFound } from './intent.errors';

/** The id of the user's intent named by a uuid or short id; 404 for anyone else's or an unknown one. */
export async function requireOwnIntentId(em: EntityManager, userId: string, idOrShortId: string): Promise<string> {
  const id = await resolveIdOrShortId(em, idOrShortId.trim(), { table: 'intents', where: 'user_id = ?', params: [userId] });
  if (!id) throw intentNotFound();
  return id;
}

/** The user's intent named by a uuid or short id (every area that takes an intent id uses this). */
export async function requireOwnIntent(em: EntityManager, userId: string, idOrShortId: string): Promise<Intent> {
  const intent = await em.findOne(Intent, { id: await requireOwnIntentId(em, userId, idOrShortId) });
  if (!intent) throw intentNotFound();
  return intent;
}
