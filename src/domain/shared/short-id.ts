import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from './errors';
import { isUuid } from './validation';

/** A short id is the first 8 hex characters of a uuid (core-api.md, Limits). */
export const SHORT_ID_LENGTH = 8;
export const SHORT_ID_RE = /^[0-9a-f]{8}$/i;

export const shortIdOf = (id: string) => id.slice(0, SHORT_ID_LENGTH).toLowerCase();

/**
 * Where a short id may resolve: a table with an expression index on `left(id::text, 8)` and the
 * condition that limits it to what the caller may address (their own intents, the
 * opportunities they hold a seat in). Both come from code, never from the request.
 */
export interface ShortIdScope {
  table: string;
  where: string;
  params: unknown[];
}

/**
 * Resolves a full uuid or a short id to the full id within the scope, or null when nothing
 * matches (the caller answers 404). Two matches within the scope answer 409 `ambiguous_id`
 * with the candidates: they are the caller's own records, and the full id settles it.
 */
export async function resolveIdOrShortId(em: EntityManager, value: string, scope: ShortIdScope): Promise<string | null> {
  const lower = value.toLowerCase();
  if (isUuid(lower)) {
    const rows = await em.execute<Array<{ id: string }>>(
      `select id from "${scope.table}" where id = ? and (${scope.where}) limit 1`,
      [lower, ...scope.params],
    );
    return rows[0]?.id ?? null;
  }
  if (!SHORT_ID_RE.test(lower)) return null;
  const rows = await em.execute<Array<{ id: string }>>(
    `select id from "${scope.table}" where left(id::text, ${SHORT_ID_LENGTH}) = ? and (${scope.where}) order by id limit 5`,
    [lower, ...scope.params],
  );
  if (rows.length > 1) {
    throw conflict('ambiguous_id', {
      detail: `The short id ${value} matches more than one record; use the full id`,
      candidates: rows.map((r) => r.id),
    });
  }
  return rows[0]?.id ?? null;
}
