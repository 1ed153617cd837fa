import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The statements no single area owns: short-id resolution within a scope an area names, and
 * the database's readiness probe.
 */

/** A short id is the first 8 hex characters of a uuid (core-api.md, Limits). */
export const SHORT_ID_LENGTH = 8;

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

/** The full id when it names a row within the scope, else null. */
export async function idInScope(em: EntityManager, id: string, scope: ShortIdScope): Promise<string | null> {
  const rows = await em.execute<Array<{ id: string }>>(`select id from "${scope.table}" where id = ? and (${scope.where}) limit 1`, [id, ...scope.params]);
  return rows[0]?.id ?? null;
}

/** Up to 5 ids within the scope that start with the short id, in id order. */
export async function idsByShortId(em: EntityManager, shortId: string, scope: ShortIdScope): Promise<string[]> {
  const rows = await em.execute<Array<{ id: string }>>(
    `select id from "${scope.table}" where left(id::text, ${SHORT_ID_LENGTH}) = ? and (${scope.where}) order by id limit 5`,
    [shortId, ...scope.params],
  );
  return rows.map((r) => r.id);
}

/** How far back a sync with no watermark yet starts looking: changes committed just before it began. */
export const SYNC_LOOKBACK_SECONDS = 5;

/**
 * The database's clock, outside any transaction (a transaction's now() is its start), less
 * `secondsAgo`: the indexers compare their watermarks with the rows' own timestamps.
 */
export async function databaseNow(em: EntityManager, secondsAgo = 0): Promise<Date> {
  const [{ now }] = await em.getConnection().execute<Array<{ now: Date | string }>>(`select now() - make_interval(secs => ?) as now`, [secondsAgo]);
  return new Date(now);
}

/** The database's clock as this statement runs (clock_timestamp(), not the transaction's start). */
export async function statementClock(em: EntityManager): Promise<Date> {
  const [{ now }] = await em.execute<Array<{ now: Date }>>(`select clock_timestamp() as now`);
  return new Date(now);
}

/** Readiness: the database answers a statement. */
export async function pingDatabase(em: EntityManager): Promise<unknown> {
  return em.getConnection().execute('select 1');
}
