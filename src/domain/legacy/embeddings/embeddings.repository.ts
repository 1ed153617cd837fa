import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LegacyEmbedding } from '../../../entities/legacy-embedding.entity';

/**
 * The length of a user-named model's vectors in one index: the first vector stored under it
 * fixes it. The registry row may outlive a failed insert: it only records what the model produces.
 */
export async function registerIndexModelLength(em: EntityManager, indexId: string, modelName: string, length: number): Promise<number> {
  await em.execute(
    `insert into legacy_index_embedding_models (index_id, model_name, dimensions, created_at) values (?, ?, ?, now()) on conflict (index_id, model_name) do nothing`,
    [indexId, modelName, length],
  );
  const [row] = await em.execute<Array<{ dimensions: number }>>(`select dimensions from legacy_index_embedding_models where index_id = ? and model_name = ?`, [indexId, modelName]);
  return row.dimensions;
}

/** Soft-deletes a live embedding with a new version; false when it was deleted already (another request won). */
export async function softDeleteEmbedding(em: EntityManager, id: string, version: string): Promise<boolean> {
  const won = await em.execute<Array<{ id: string }>>(
    `update legacy_embeddings set deleted_at = now(), updated_at = now(), version = ? where id = ? and deleted_at is null returning id`,
    [version, id],
  );
  return won.length > 0;
}

export type EmbeddingKey = { indexId: string; itemId: string; modelName: string; category: string };

/** The live embedding of a natural key. */
export async function liveEmbedding(em: EntityManager, key: EmbeddingKey): Promise<LegacyEmbedding | null> {
  return em.findOne(LegacyEmbedding, { ...key, deletedAt: null });
}

/**
 * Writes a new embedding; null when another request wrote the same natural key at the same
 * moment (that one stands: the caller reads it).
 */
export async function insertEmbeddingOnce(em: EntityManager, e: LegacyEmbedding): Promise<LegacyEmbedding | null> {
  try {
    await em.persistAndFlush(e);
    return e;
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    em.clear();
    return null;
  }
}

/** Writes the changes made to a loaded embedding. */
export async function saveEmbedding(em: EntityManager, e: LegacyEmbedding): Promise<void> {
  em.persist(e);
  await em.flush();
}

/** Reads a loaded embedding again, as another request may have written it. */
export async function reloadEmbedding(em: EntityManager, e: LegacyEmbedding): Promise<void> {
  await em.refresh(e);
}

export interface EmbeddingFilter {
  indexId: string;
  itemId: string;
  modelName?: string;
  categories?: string[];
  offset: number;
  limit: number;
}

/** A page of an item's live embeddings, oldest first. */
export async function liveEmbeddingsOf(em: EntityManager, f: EmbeddingFilter): Promise<LegacyEmbedding[]> {
  const where: FilterQuery<LegacyEmbedding> = { indexId: f.indexId, itemId: f.itemId, deletedAt: null };
  if (f.modelName) where.modelName = f.modelName;
  if (f.categories?.length) where.category = { $in: f.categories };
  return em.find(LegacyEmbedding, where, { orderBy: { createdAt: 'asc', id: 'asc' }, offset: f.offset, limit: f.limit });
}
