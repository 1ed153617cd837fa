import type { EntityManager } from '@mikro-orm/postgresql';

/** A key's shared count, as the table holds it after a flush. `expire` is epoch milliseconds. */
export interface SharedCount {
  key: string;
  points: number;
  expire: number;
}

/**
 * Adds each key's requests counted since the last flush to its shared row, starting a new window
 * (ending at `expire`) where the row's has passed, and reads back the rows of `watch`, keys this
 * instance counts but sent nothing for, so their counts from other instances reach it too. One
 * statement, whatever the number of keys.
 */
export async function addRateLimitCounts(em: EntityManager, sent: ReadonlyArray<{ key: string; points: number }>, watch: readonly string[], nowMs: number, expire: number): Promise<SharedCount[]> {
  const rows = await em.getConnection().execute<Array<{ key: string; points: number; expire: string }>>(
    `with sent as (
       insert into rate_limits (key, points, expire)
       select t.key, t.points, ?::bigint from jsonb_to_recordset(?::jsonb) as t(key text, points int)
       on conflict (key) do update set
         points = case when rate_limits.expire is null or rate_limits.expire <= ? then excluded.points else rate_limits.points + excluded.points end,
         expire = case when rate_limits.expire is null or rate_limits.expire <= ? then excluded.expire else rate_limits.expire end
       returning key, points, expire
     )
     select key, points, expire from sent
     union all
     select key, points, expire from rate_limits where key in (select jsonb_array_elements_text(?::jsonb)) and expire > ?`,
    [expire, JSON.stringify(sent), nowMs, nowMs, JSON.stringify(watch), nowMs],
  );
  return rows.map((r) => ({ key: r.key, points: Number(r.points), expire: Number(r.expire) }));
}

/** Deletes counters whose window has passed (`expire` is epoch milliseconds); returns how many went. */
export async function deleteExpiredRateLimits(em: EntityManager, nowMs: number): Promise<number> {
  const res = await em.getConnection().execute(`delete from rate_limits where expire is not null and expire < ?`, [nowMs], 'run');
  return (res as { affectedRows?: number }).affectedRows ?? 0;
}
