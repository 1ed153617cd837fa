import type { EntityManager } from '@mikro-orm/postgresql';

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
