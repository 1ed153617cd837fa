import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Intent } from '../../../entities/intent.entity';
import { LegacyIndexItem } from '../../../entities/legacy-index-item.entity';

/**
 * The statements of index items and their default embeddings. Reads marked "outside the
 * transaction" use the connection directly, as the indexer's reads always have: they see
 * committed rows whatever transaction the caller's manager holds.
 */

export interface ItemRow {
  id: string;
  point_id: string;
  index_id: string;
  item_id: string;
  item_type: string;
  controller_id: string;
  controller_did: string;
  live: boolean;
}

export interface VectorRow {
  id: string;
  point_id: string;
  index_id: string;
  controller_id: string;
  vector: number[];
}

/** A Postgres text[] literal of ids, bound as one parameter. */
const textArray = (ids: string[]) => `{${ids.map((id) => `"${id.replace(/["\\]/g, '')}"`).join(',')}}`;

/** The items with their index's controller, and whether item and index are both live (outside the transaction). */
export function itemRows(em: EntityManager, ids: string[]): Promise<ItemRow[]> {
  return em.getConnection().execute<ItemRow[]>(
    `select i.id, i.point_id, i.index_id, i.item_id, i.item_type, x.controller_id, x.controller_did,
            (i.deleted_at is null and x.deleted_at is null) as live
       from legacy_index_items i join legacy_indexes x on x.id = i.index_id
      where i.id = any(?::text[])`,
    [textArray(ids)],
  );
}

/** The live embedding of an item under a model and category, locked until commit. */
export async function lockLiveEmbedding(
  tx: EntityManager,
  key: { indexId: string; itemId: string; modelName: string; category: string },
): Promise<{ id: string } | undefined> {
  const [current] = await tx.execute<Array<{ id: string }>>(
    `select id from legacy_embeddings
      where index_id = ? and item_id = ? and model_name = ? and category = ? and deleted_at is null for update`,
    [key.indexId, key.itemId, key.modelName, key.category],
  );
  return current;
}

/** Replaces an embedding's vector in place: its id stays, its version moves. */
export async function replaceEmbeddingVector(tx: EntityManager, id: string, vector: string, dimensions: number, version: string): Promise<void> {
  await tx.execute(`update legacy_embeddings set vector = ?::jsonb, dimensions = ?, context = null, version = ?, updated_at = now() where id = ?`, [
    vector,
    dimensions,
    version,
    id,
  ]);
}

export interface NewEmbedding {
  id: string;
  indexId: string;
  itemId: string;
  modelName: string;
  category: string;
  description: string;
  /** The vector as JSON text. */
  vector: string;
  dimensions: number;
  controllerId: string;
  controllerDid: string;
  version: string;
}

/** Inserts an embedding unless a live one holds its key already. */
export async function insertEmbedding(tx: EntityManager, e: NewEmbedding): Promise<void> {
  await tx.execute(
    `insert into legacy_embeddings (id, index_id, item_id, model_name, category, context, description, vector, dimensions,
                                    controller_id, controller_did, version, created_at, updated_at)
     values (?, ?, ?, ?, ?, null, ?, ?::jsonb, ?, ?, ?, ?, now(), now())
     on conflict (index_id, item_id, model_name, category) where deleted_at is null do nothing`,
    [e.id, e.indexId, e.itemId, e.modelName, e.category, e.description, e.vector, e.dimensions, e.controllerId, e.controllerDid, e.version],
  );
}

/** Records the length of the service's vectors under a model name (the first one fixes it) and answers the stored length. */
export async function registerServiceModelLength(em: EntityManager, modelName: string, dimensions: number): Promise<number> {
  await em.execute(`insert into legacy_embedding_models (model_name, dimensions, created_at) values (?, ?, now()) on conflict (model_name) do nothing`, [modelName, dimensions]);
  const [row] = await em.execute<Array<{ dimensions: number }>>(`select dimensions from legacy_embedding_models where model_name = ?`, [modelName]);
  return row.dimensions;
}

/** The length of the service's vectors under a model name; undefined when the service never used it. */
export async function serviceModelLength(em: EntityManager, modelName: string): Promise<number | undefined> {
  const [row] = await em.execute<Array<{ dimensions: number }>>(`select dimensions from legacy_embedding_models where model_name = ?`, [modelName]);
  return row?.dimensions;
}

/** Stamps items indexed, each with its new version (`versions[k]` for `ids[k]`). */
export async function markItemsIndexed(em: EntityManager, ids: string[], versions: string[]): Promise<void> {
  await em.execute(
    `update legacy_index_items i set indexed_at = now(), updated_at = now(), touched_at = now(), version = v.version
       from unnest(?::text[], ?::text[]) as v(id, version) where i.id = v.id`,
    [textArray(ids), textArray(versions)],
  );
}

/** Items wait for an embedding again; updatedAt and the new version only for items indexed until now. */
export async function markItemsWaiting(em: EntityManager, ids: string[], versions: string[]): Promise<void> {
  await em.execute(
    `update legacy_index_items i
        set indexed_at = null, touched_at = now(),
            updated_at = case when i.indexed_at is null then i.updated_at else now() end,
            version = case when i.indexed_at is null then i.version else v.version end
       from unnest(?::text[], ?::text[]) as v(id, version) where i.id = v.id`,
    [textArray(ids), textArray(versions)],
  );
}

/** Removed items whose entry has left the vector index. */
export async function markItemsRemoved(em: EntityManager, ids: string[]): Promise<void> {
  await em.execute(`update legacy_index_items set indexed_at = null, touched_at = now() where id = any(?::text[]) and indexed_at is not null`, [textArray(ids)]);
}

/** Moves only the sync watermark of these items. */
export async function touchItems(em: EntityManager, ids: string[]): Promise<void> {
  await em.execute(`update legacy_index_items set touched_at = now() where id = any(?::text[])`, [textArray(ids)]);
}

/** Live items of live indexes with their live embedding under a model and category (outside the transaction). */
export function vectorRows(em: EntityManager, modelName: string, category: string, ids: string[]): Promise<VectorRow[]> {
  return em.getConnection().execute<VectorRow[]>(
    `select i.id, i.point_id, i.index_id, x.controller_id, e.vector
       from legacy_index_items i
       join legacy_indexes x on x.id = i.index_id and x.deleted_at is null
       join legacy_embeddings e on e.index_id = i.index_id and e.item_id = i.item_id
                               and e.model_name = ? and e.category = ? and e.deleted_at is null
      where i.id = any(?::text[]) and i.deleted_at is null`,
    [modelName, category, textArray(ids)],
  );
}

/** At most `max` live items of these indexes with their stored vector, for exact ranking. */
export function storedVectorsOf(
  em: EntityManager,
  modelName: string,
  category: string,
  indexIds: string[],
  max: number,
): Promise<Array<{ point_id: string; vector: number[] }>> {
  return em.execute<Array<{ point_id: string; vector: number[] }>>(
    `select i.point_id, e.vector
       from legacy_index_items i
       join legacy_embeddings e on e.index_id = i.index_id and e.item_id = i.item_id
                               and e.model_name = ? and e.category = ? and e.deleted_at is null
      where i.index_id = any(?::text[]) and i.deleted_at is null
      limit ?`,
    [modelName, category, textArray(indexIds), max],
  );
}

const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

/** The items (in any index) whose node is one of these (outside the transaction). */
export async function itemIdsOfNodes(em: EntityManager, nodeIds: string[]): Promise<string[]> {
  return ids(await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where item_id = any(?::text[])`, [textArray(nodeIds)]));
}

/** Removed items, or items of removed indexes, still stamped indexed: their entry may remain (outside the transaction). */
export async function removedItemsStillIndexed(em: EntityManager): Promise<string[]> {
  return ids(
    await em.getConnection().execute<Array<{ id: string }>>(
      `select i.id from legacy_index_items i join legacy_indexes x on x.id = i.index_id
        where i.indexed_at is not null and (i.deleted_at is not null or x.deleted_at is not null) order by i.touched_at limit 2000`,
    ),
  );
}

/** Live items waiting for their default embedding, longest waiting first (outside the transaction). */
export async function waitingItemIds(em: EntityManager): Promise<string[]> {
  return ids(await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where indexed_at is null and deleted_at is null order by touched_at limit 2000`));
}

export async function countWaitingItems(em: EntityManager): Promise<number> {
  const [row] = await em.getConnection().execute<Array<{ count: string }>>(`select count(*) as count from legacy_index_items where indexed_at is null and deleted_at is null`);
  return Number(row.count);
}

/** The next `limit` live item ids after `after`, in id order (outside the transaction). */
export async function liveItemIdsAfter(em: EntityManager, after: string, limit: number): Promise<string[]> {
  return ids(await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where deleted_at is null and id > ? order by id limit ?`, [after, limit]));
}

/** Every live item id, in id order (outside the transaction). */
export async function allLiveItemIds(em: EntityManager): Promise<string[]> {
  return ids(await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where deleted_at is null order by id`));
}

/** Every item touched after `since` (outside the transaction). */
export function itemsTouchedSince(em: EntityManager, since: Date): Promise<Array<{ id: string; touched_at: Date }>> {
  return em.getConnection().execute<Array<{ id: string; touched_at: Date }>>(`select id, touched_at from legacy_index_items where touched_at > ?`, [since]);
}

/** The first 5000 items touched after `since`, in touch order (outside the transaction). */
export function nextTouchedItems(em: EntityManager, since: Date): Promise<Array<{ id: string; touched_at: string }>> {
  return em
    .getConnection()
    .execute<Array<{ id: string; touched_at: string }>>(`select id, touched_at from legacy_index_items where touched_at > ? order by touched_at limit 5000`, [since]);
}



/** Revives a removed item (waiting for its embedding) with a new version; false when another request revived it. */
export async function reviveItem(em: EntityManager, id: string, version: string): Promise<boolean> {
  const revived = await em.execute<Array<{ id: string }>>(
    `update legacy_index_items set deleted_at = null, indexed_at = null, updated_at = now(), touched_at = now(), version = ?
      where id = ? and deleted_at is not null returning id`,
    [version, id],
  );
  return revived.length > 0;
}

/** Soft-deletes a live item with a new version; false when another request removed it. */
export async function softDeleteItem(em: EntityManager, id: string, version: string): Promise<boolean> {
  const removed = await em.execute<Array<{ id: string }>>(
    `update legacy_index_items set deleted_at = now(), updated_at = now(), touched_at = now(), version = ?
      where id = ? and deleted_at is null returning id`,
    [version, id],
  );
  return removed.length > 0;
}

/** The item of a node in an index, a removed one too. */
export async function itemOfNode(em: EntityManager, indexId: string, nodeIds: string[]): Promise<LegacyIndexItem | null> {
  return em.findOne(LegacyIndexItem, { indexId, itemId: { $in: nodeIds } });
}

/** The live item of a node in an index. */
export async function liveItemOfNode(em: EntityManager, indexId: string, nodeIds: string[]): Promise<LegacyIndexItem | null> {
  return em.findOne(LegacyIndexItem, { indexId, itemId: { $in: nodeIds }, deletedAt: null });
}

/**
 * Writes a new item. Another request writing the same pair at once makes this one lose: the
 * row it wrote is answered instead.
 */
export async function insertItem(em: EntityManager, item: LegacyIndexItem): Promise<LegacyIndexItem> {
  try {
    await em.persistAndFlush(item);
    return item;
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    em.clear();
    return em.findOneOrFail(LegacyIndexItem, { indexId: item.indexId, itemId: item.itemId });
  }
}

/** Reads a loaded item again, as another request may have written it. */
export async function reloadItem(em: EntityManager, item: LegacyIndexItem): Promise<LegacyIndexItem> {
  return (await em.refresh(item)) ?? item;
}

/** A page of an index's live items, newest first, after the cursor's item (one more than `limit`, to tell a last page). */
export async function liveItemsPage(em: EntityManager, indexId: string, after: { createdAt: string; id: string } | null, limit: number): Promise<LegacyIndexItem[]> {
  const where: FilterQuery<LegacyIndexItem> = { indexId, deletedAt: null };
  if (after) where.$or = [{ createdAt: { $lt: new Date(after.createdAt) } }, { createdAt: new Date(after.createdAt), id: { $lt: after.id } }];
  return em.find(LegacyIndexItem, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 });
}

/** The live items of these indexes behind these vector points, in no order. */
export async function liveItemsAtPoints(em: EntityManager, indexIds: string[], pointIds: string[]): Promise<LegacyIndexItem[]> {
  if (!pointIds.length || !indexIds.length) return [];
  return em.find(LegacyIndexItem, { pointId: { $in: pointIds }, indexId: { $in: indexIds }, deletedAt: null });
}

/** Items by their record ids, in no order. */
export async function itemsByIds(em: EntityManager, ids: string[]): Promise<LegacyIndexItem[]> {
  return ids.length ? em.find(LegacyIndexItem, { id: { $in: ids } }) : [];
}

/** Intents by id, in no order. */
export async function intentsByIds(em: EntityManager, ids: string[]): Promise<Intent[]> {
  return ids.length ? em.find(Intent, { id: { $in: ids } }) : [];
}
