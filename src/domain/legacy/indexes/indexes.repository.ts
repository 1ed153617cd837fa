import type { EntityManager } from '@mikro-orm/postgresql';
import { LegacyIndex } from '../../../entities/legacy-index.entity';
import { LegacyIndexItem } from '../../../entities/legacy-index-item.entity';

/** Soft-deletes a live index with a new version; false when it was deleted already (another request won). */
export async function softDeleteIndex(em: EntityManager, id: string, version: string): Promise<boolean> {
  const won = await em.execute<Array<{ id: string }>>(
    `update legacy_indexes set deleted_at = now(), updated_at = now(), version = ? where id = ? and deleted_at is null returning id`,
    [version, id],
  );
  return won.length > 0;
}

/** Any index by id, a deleted one too. */
export async function indexById(em: EntityManager, id: string): Promise<LegacyIndex | null> {
  return em.findOne(LegacyIndex, { id });
}

/** Indexes by id, in no order. */
export async function indexesByIds(em: EntityManager, ids: string[]): Promise<LegacyIndex[]> {
  return ids.length ? em.find(LegacyIndex, { id: { $in: ids } }) : [];
}

/** The ids among `ids` naming a live index. */
export async function liveIndexIds(em: EntityManager, ids: string[]): Promise<string[]> {
  return ids.length ? (await em.find(LegacyIndex, { id: { $in: ids }, deletedAt: null }, { fields: ['id'] })).map((i) => i.id) : [];
}

/** The live indexes the accounts control, newest first (at most `limit`). */
export async function liveIndexesOfControllers(em: EntityManager, userIds: string[], limit = 1000): Promise<LegacyIndex[]> {
  if (!userIds.length) return [];
  return em.find(LegacyIndex, { controllerId: { $in: userIds }, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit });
}

/** Writes a new index, or the changes made to a loaded one. */
export async function saveIndex(em: EntityManager, index: LegacyIndex): Promise<void> {
  em.persist(index);
  await em.flush();
}

/** Reads a loaded index again, as another request may have written it. */
export async function reloadIndex(em: EntityManager, index: LegacyIndex): Promise<void> {
  await em.refresh(index);
}

/** The ids of every item of an index, removed ones too. */
export async function itemIdsOfIndex(em: EntityManager, indexId: string): Promise<string[]> {
  return (await em.find(LegacyIndexItem, { indexId }, { fields: ['id'] })).map((i) => i.id);
}

/** The ids of every live index the accounts control. */
export async function liveIndexIdsOfControllers(em: EntityManager, userIds: string[]): Promise<string[]> {
  if (!userIds.length) return [];
  return (await em.find(LegacyIndex, { controllerId: { $in: userIds }, deletedAt: null }, { fields: ['id'] })).map((i) => i.id);
}
