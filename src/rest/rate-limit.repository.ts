import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/** The rate limiter's store runs its own statements on table rate_limits through this knex client. */
export function rateLimitStoreClient(em: EntityManager): Knex {
  return em.getKnex();
}

/** Deletes counters whose window has passed (`expire` is epoch milliseconds); returns how many went. */
export async function deleteExpiredRateLimits(em: EntityManager, nowMs: number): Promise<number> {
  const res = await em.getConnection().execute(`delete from rate_limits where expire is not null and expire < ?`, [nowMs], 'run');
  return (res as { affectedRows?: number }).affectedRows ?? 0;
}
