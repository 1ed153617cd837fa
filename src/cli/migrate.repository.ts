import type { EntityManager } from '@mikro-orm/postgresql';

/** How many migrations MikroORM recorded as applied on this database. */
export async function appliedMigrationCount(em: EntityManager): Promise<string> {
  const applied = await em.getConnection().execute<Array<{ count: string }>>(`select count(*) as count from mikro_orm_migrations`);
  return applied[0].count;
}
