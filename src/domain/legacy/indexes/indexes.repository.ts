import type { EntityManager } from '@mikro-orm/postgresql';

/** Soft-deletes a live index with a new version; false when it was deleted already (another request won). */
export async function softDeleteIndex(em: EntityManager, id: string, version: string): Promise<boolean> {
  const won = await em.execute<Array<{ id: string }>>(
    `update legacy_indexes set deleted_at = now(), updated_at = now(), version = ? where id = ? and deleted_at is null returning id`,
    [version, id],
  );
  return won.length > 0;
}
