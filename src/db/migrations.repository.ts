import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The names MikroORM recorded as applied (without a file extension, as it records them), or
 * null on a database it never migrated.
 */
export async function appliedMigrationNames(em: EntityManager): Promise<Set<string> | null> {
  const conn = em.getConnection();
  const [table] = await conn.execute<Array<{ present: boolean }>>(`select to_regclass('mikro_orm_migrations') is not null as present`);
  if (!table.present) return null;
  const rows = await conn.execute<Array<{ name: string }>>(`select name from mikro_orm_migrations`);
  return new Set(rows.map((r) => r.name.replace(/\.(ts|js)$/, '')));
}
