import type { EntityManager } from '@mikro-orm/postgresql';

/** The statements that read pg-boss's own tables (its schema `pgboss`, created by pg-boss at start). */

/** Whether pg-boss ever created its job table on this database. */
export async function jobTablePresent(em: EntityManager): Promise<boolean> {
  const [{ present }] = await em.getConnection().execute<Array<{ present: boolean }>>(`select to_regclass('pgboss.job') is not null as present`);
  return present;
}

/** Jobs per queue and state, for the states that still have work in them. */
export async function pendingJobCounts(em: EntityManager): Promise<Array<{ name: string; state: string; count: string }>> {
  return em
    .getConnection()
    .execute<Array<{ name: string; state: string; count: string }>>(
      `select name, state::text as state, count(*) as count from pgboss.job where state in ('created', 'retry', 'active') group by name, state`,
    );
}
