import type { EntityManager } from '@mikro-orm/postgresql';
import { Intent } from '../../entities/intent.entity';
import { notFound } from '../shared/errors';
import { UUID_RE } from '../shared/validation';

const SHORT_ID_RE = /^[0-9a-f]{8}$/i;

/**
 * The caller's intent by uuid or 8-character short id (the uuid's first eight hex digits).
 * Another user's intent, like an unknown one, is 404. (The intents area owns the shared
 * resolver; this minimal one serves discover until the branches meet.)
 */
export async function findOwnIntent(em: EntityManager, userId: string, idOrShort: string): Promise<Intent> {
  let intent: Intent | null = null;
  if (UUID_RE.test(idOrShort)) intent = await em.findOne(Intent, { id: idOrShort.toLowerCase() });
  else if (SHORT_ID_RE.test(idOrShort)) {
    const rows = await em.getConnection().execute<Array<{ id: string }>>(
      `select id from intents where user_id = ? and id::text like ? limit 2`,
      [userId, `${idOrShort.toLowerCase()}%`],
    );
    if (rows.length === 1) intent = await em.findOne(Intent, { id: rows[0].id });
  }
  if (!intent || intent.userId !== userId) throw notFound('Intent');
  return intent;
}
