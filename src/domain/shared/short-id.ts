import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from './errors';
import { idInScope, idsByShortId, SHORT_ID_LENGTH, type ShortIdScope } from './shared.repository';
import { isUuid } from './validation';

export { SHORT_ID_LENGTH, type ShortIdScope } from './shared.repository';

export const SHORT_ID_RE = /^[0-9a-f]{8}$/i;

export const shortIdOf = (id: string) => id.slice(0, SHORT_ID_LENGTH).toLowerCase();

/**
 * Resolves a full uuid or a short id to the full id within the scope, or null when nothing
 * matches (the caller answers 404). Two matches within the scope answer 409 `ambiguous_id`
 * with the candidates: they are the caller's own records, and the full id settles it.
 */
export async function resolveIdOrShortId(em: EntityManager, value: string, scope: ShortIdScope): Promise<string | null> {
  const lower = value.toLowerCase();
  if (isUuid(lower)) return idInScope(em, lower, scope);
  if (!SHORT_ID_RE.test(lower)) return null;
  const ids = await idsByShortId(em, lower, scope);
  if (ids.length > 1) {
    throw conflict('ambiguous_id', {
      detail: `The short id ${value} matches more than one record; use the full id`,
      candidates: ids,
    });
  }
  return ids[0] ?? null;
}
