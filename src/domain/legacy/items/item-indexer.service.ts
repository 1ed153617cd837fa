import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TextEmbedder } from '../ports';
import type { JobQueue } from '../../../jobs/job-queue';
import type { IndexedIntent, VectorIndex } from '../../../vector/vector-index';
import { copyIntoRebuild, type ReindexProgress } from '../../../vector/copy-into-rebuild';

/** Where points go: the index in service, or the copy a reindex fills. */
type IndexWriter = Pick<VectorIndex, 'upsert' | 'remove'>;
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { newCommitId, newStreamId } from '../../shared/stream-id';
import { documentOf, loadNodeDocs } from './item-nodes';
import { PeriodicTask } from '../../../jobs/periodic-task';
import { databaseNow, SYNC_LOOKBACK_SECONDS } from '../../shared/shared.repository';
import {
  allLiveItemIds,
  countWaitingItems,
  insertEmbedding,
  itemIdsOfNodes,
  itemRows,
  itemsTouchedSince,
  liveItemIdsAfter,
  lockLiveEmbedding,
  markItemsIndexed,
  markItemsRemoved,
  markItemsWaiting,
  nextTouchedItems,
  registerServiceModelLength,
  removedItemsStillIndexed,
  replaceEmbeddingVector,
  serviceModelLength,
  storedVectorsOf,
  touchItems,
  vectorRows,
  waitingItemIds,
  type ItemRow,
  type VectorRow,
} from './items.repository';

/** The category of the embedding every item gets when it is added. */
export const DEFAULT_CATEGORY = 'document';
export const ITEM_EMBED_JOB = 'legacy.items.embed';
export const ITEM_SWEEP_JOB = 'legacy.items.sweep';
/** The description the service gives the default embeddings it makes. */
export const DEFAULT_DESCRIPTION = 'The default embedding of the item: its document as stored';
const BATCH = 200;
/** Items ranked in Postgres when the vector index is down. */
const EXACT_FALLBACK_MAX = 20_000;

/**
 * Keeps index items searchable: each item's default embedding (the configured text model, in
 * the `document` category) is made from its node's text when the item is added, and the item
 * vector index holds one entry per live item, in a partition named by its index. The vector
 * index is separate from the intents' one, so item vectors never reach matching.
 */
export class ItemIndexer extends DomainService {
  private readonly syncTask = new PeriodicTask('item index sync', () => this.sync(), this.logger);
  private watermark: Date | null = null;
  private background: Promise<void> = Promise.resolve();

  constructor(
    core: CoreDeps,
    readonly embedder: TextEmbedder,
    readonly index: VectorIndex,
    private readonly jobs: JobQueue,
  ) {
    super(core);
  }

  private withEm<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    if (RequestContext.getEntityManager()) return fn(this.em);
    return RequestContext.create(this.core.orm.em, () => fn(this.em));
  }

  private async itemRows(em: EntityManager, ids: string[]): Promise<ItemRow[]> {
    if (!ids.length) return [];
    return itemRows(em, ids);
  }

  /**
   * (Re)makes the default embedding of these items from their nodes' current text and puts
   * them in the vector index. When the embedder fails the items wait (indexedAt null) and a job
   * retries them. Returns the ids still waiting.
   */
  async embedItems(itemIds: string[], options: { retryLater?: boolean; target?: IndexWriter } = {}): Promise<string[]> {
    const pending: string[] = [];
    const unique = [...new Set(itemIds)];
    for (let i = 0; i < unique.length; i += BATCH) pending.push(...(await this.embedBatch(unique.slice(i, i + BATCH), options.target)));
    if (pending.length && options.retryLater !== false) await this.jobs.send(ITEM_EMBED_JOB, { itemIds: pending }, { retryLimit: 10, retryDelay: 30, retryBackoff: true });
    return pending;
  }

  private async embedBatch(ids: string[], target?: IndexWriter): Promise<string[]> {
    return this.withEm(async (em) => {
      const rows = (await this.itemRows(em, ids)).filter((r) => r.live);
      const docs = await loadNodeDocs(em, rows.map((r) => ({ itemId: r.item_id, itemType: r.item_type })));
      const withText = rows.filter((r) => docs.has(r.item_id));
      const waiting = new Set<string>();
      if (withText.length) {
        let vectors: Float32Array[];
        try {
          vectors = await this.embedder.embed(withText.map((r) => documentOf(docs.get(r.item_id)!)));
        } catch (err) {
          this.logger.warn({ err: { message: (err as Error).message }, items: withText.length }, 'item embedding failed; items kept for retry');
          await this.markWaiting(em, withText.map((r) => r.id));
          return withText.map((r) => r.id);
        }
        const length = await this.registerLength(em, vectors[0].length);
        const made = withText.map((row, k) => ({ row, vector: vectors[k] }));
        // The model's vectors changed length under the same name (it was reconfigured): storing
        // them would mix lengths in the vector index, so those items wait and the operator is told.
        const misfits = made.filter((m) => m.vector.length !== length);
        if (misfits.length) {
          this.logger.warn(
            { model: this.embedder.modelName, expected: length, got: misfits[0].vector.length, items: misfits.length },
            'the embedding model now makes vectors of another length under the same name; items kept waiting (configure the new model under another name, then run npm run reindex)',
          );
          for (const m of misfits) waiting.add(m.row.id);
          await this.markWaiting(em, [...waiting]);
        }
        await em.transactional(async (t) => {
          const tx = t as EntityManager;
          for (const { row, vector: v } of made) {
            if (waiting.has(row.id)) continue;
            const vector = JSON.stringify(Array.from(v));
            // The default embedding is replaced in place, so its id stays and its version moves.
            const current = await lockLiveEmbedding(tx, { indexId: row.index_id, itemId: row.item_id, modelName: this.embedder.modelName, category: DEFAULT_CATEGORY });
            if (current) {
              await replaceEmbeddingVector(tx, current.id, vector, v.length, newCommitId(current.id));
              continue;
            }
            const id = newStreamId();
            await insertEmbedding(tx, {
              id,
              indexId: row.index_id,
              itemId: row.item_id,
              modelName: this.embedder.modelName,
              category: DEFAULT_CATEGORY,
              description: DEFAULT_DESCRIPTION,
              vector,
              dimensions: v.length,
              controllerId: row.controller_id,
              controllerDid: row.controller_did,
              version: newCommitId(id),
            });
          }
        });
      }
      await this.syncPoints(ids.filter((id) => !waiting.has(id)), true, target);
      return [...waiting];
    });
  }

  /**
   * The length of the service's vectors under its model name: the first vector the service made
   * under it fixes it. Only the service writes this registry, so no user's vector can.
   */
  private async registerLength(em: EntityManager, dimensions: number): Promise<number> {
    return registerServiceModelLength(em, this.embedder.modelName, dimensions);
  }

  /**
   * Whether a model name is the service's own (its current embedder's, or one it used before),
   * and then the length its vectors have: `unknown` while the service has made none under it.
   * null: a name users own, per index.
   */
  async ownModelLength(em: EntityManager, modelName: string): Promise<number | 'unknown' | null> {
    const length = await serviceModelLength(em, modelName);
    if (length !== undefined) return length;
    if (modelName !== this.embedder.modelName) return null;
    return this.embedder.dimensions ?? 'unknown';
  }

  /** Indexed now: a change readers see, so updatedAt and version move with it. */
  private async markIndexed(em: EntityManager, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await markItemsIndexed(em, ids, ids.map((id) => newCommitId(id)));
  }

  /** Waiting for an embedding again; a new version only for items that were indexed until now. */
  private async markWaiting(em: EntityManager, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await markItemsWaiting(em, ids, ids.map((id) => newCommitId(id)));
  }

  /**
   * A removed item whose entry has left the vector index: indexedAt null. A removed item still
   * stamped indexed is one whose entry may remain (the index was down when it was removed); the
   * sweep (`retryPending`) removes it.
   */
  private async markRemoved(em: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await markItemsRemoved(em, ids);
  }

  /** Only the sync watermark moves: nothing a reader sees changed, but other instances must look. */
  private async touch(em: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await touchItems(em, ids);
  }

  private vectorRows(em: EntityManager, ids: string[]): Promise<VectorRow[]> {
    return vectorRows(em, this.embedder.modelName, DEFAULT_CATEGORY, ids);
  }

  private entry(r: VectorRow): IndexedIntent {
    return { id: r.point_id, vector: Float32Array.from(r.vector), userId: r.controller_id, networkIds: [r.index_id], active: true };
  }

  /**
   * Brings the vector index in line with Postgres for these items: live items with a default
   * embedding are (re)put, the rest leave. Stamps indexedAt (with a new version) on the ones put;
   * the others' sync watermark moves, so other instances re-read them too. With a `target` (a
   * reindex's copy) a failure of the vector index fails the call: the copy must not be put in
   * service with items missing.
   */
  async syncPoints(itemIds: string[], stamp = true, target?: IndexWriter): Promise<void> {
    const writer = target ?? this.index;
    if (!itemIds.length) return;
    await this.withEm(async (em) => {
      const all = await this.itemRows(em, itemIds);
      const vectors = await this.vectorRows(em, itemIds);
      const kept = new Set(vectors.map((v) => v.id));
      const gone = all.filter((r) => !kept.has(r.id)).map((r) => r.point_id);
      try {
        if (gone.length) await writer.remove(gone);
        if (vectors.length) await writer.upsert(vectors.map((v) => this.entry(v)));
      } catch (err) {
        if (target) throw err;
        // The vector index is down: Postgres keeps the truth, the items wait and a job retries.
        this.logger.warn({ err: { message: (err as Error).message }, items: all.length }, 'item vector index unavailable; items kept for retry');
        if (stamp) {
          const live = all.filter((r) => r.live).map((r) => r.id);
          await this.markWaiting(em, live);
          await this.touch(em, all.filter((r) => !r.live).map((r) => r.id));
          if (live.length) await this.jobs.send(ITEM_EMBED_JOB, { itemIds: live }, { retryLimit: 10, retryDelay: 30, retryBackoff: true });
        }
        return;
      }
      if (stamp) {
        await this.markIndexed(em, [...kept]);
        await this.touch(em, all.filter((r) => !kept.has(r.id) && r.live).map((r) => r.id));
        await this.markRemoved(em, all.filter((r) => !r.live).map((r) => r.id));
      }
    });
  }

  /**
   * The items of these indexes whose vectors are nearest the query text, best first. When the
   * vector index cannot answer, the stored default embeddings are ranked exactly instead.
   */
  async search(indexIds: string[], query: string, limit: number): Promise<Array<{ pointId: string; score: number }>> {
    if (!indexIds.length || limit <= 0) return [];
    const [vector] = await this.embedder.embed([query]);
    try {
      const hits = await this.index.search({ vector, networkIds: indexIds, limit });
      return hits.map((h) => ({ pointId: h.id, score: h.score }));
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, 'item vector index unavailable; ranking stored embeddings exactly');
      return this.exactSearch(indexIds, vector, limit);
    }
  }

  private async exactSearch(indexIds: string[], vector: Float32Array, limit: number): Promise<Array<{ pointId: string; score: number }>> {
    return this.withEm(async (em) => {
      const rows = await storedVectorsOf(em, this.embedder.modelName, DEFAULT_CATEGORY, indexIds, EXACT_FALLBACK_MAX);
      return rows
        .filter((r) => r.vector.length === vector.length)
        .map((r) => ({ pointId: r.point_id, score: r.vector.reduce((sum, x, i) => sum + x * vector[i], 0) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    });
  }

  /** Items whose node is this intent or page: their text changed, so their default embedding is made again. */
  async nodesChanged(nodeIds: string[]): Promise<void> {
    if (!nodeIds.length) return;
    const ids = await this.withEm((em) => itemIdsOfNodes(em, nodeIds));
    await this.embedItems(ids);
  }

  /**
   * The sweep (a job every minute, and at start): entries of removed items that stayed in the
   * vector index through an outage leave it, and items still waiting for their default
   * embedding are retried. Returns the ids still waiting.
   */
  async retryPending(): Promise<string[]> {
    const leftovers = await this.withEm(removedItemsStillIndexed);
    await this.syncPoints(leftovers);
    const ids = await this.withEm(waitingItemIds);
    return ids.length ? this.embedItems(ids) : [];
  }

  /**
   * At start: the in-process index is filled from the stored default embeddings; then items
   * still waiting for one are embedded in the background.
   */
  async load(options: { fromStore: boolean }): Promise<void> {
    if (options.fromStore) {
      await this.withEm(async (em) => {
        this.watermark = await databaseNow(em);
        let after = '';
        for (;;) {
          const ids = await liveItemIdsAfter(em, after, BATCH * 5);
          if (!ids.length) break;
          const rows = await this.vectorRows(em, ids);
          if (rows.length) await this.index.upsert(rows.map((r) => this.entry(r)));
          after = ids[ids.length - 1];
        }
      });
    }
    this.background = this.retryPending()
      .then(() => undefined)
      .catch((err) => this.logger.error({ err }, 'item catch-up failed'));
  }

  /** Live items still waiting for their default embedding. */
  async backlog(): Promise<number> {
    return this.withEm(countWaitingItems);
  }

  /**
   * Rebuilds the item index into a copy that replaces it when full (searches keep the old one
   * meanwhile); with `embed`, makes every default embedding again. Items other processes
   * touched while the copy was filled are put again after the switch.
   */
  async reindex(options: { embed: boolean; onProgress?: (p: ReindexProgress) => void }): Promise<{ items: number; pending: number }> {
    const startedAt = await this.withEm(databaseNow);
    const ids = await this.withEm(allLiveItemIds);
    const { copiedAt, pending } = await copyIntoRebuild(
      ids,
      BATCH,
      await this.index.rebuild(),
      async (batch, target) => {
        if (options.embed) return this.embedItems(batch, { retryLater: false, target });
        await this.syncPoints(batch, false, target);
        return [];
      },
      () => this.withEm(databaseNow),
      options.onProgress,
    );
    const touched = await this.withEm(async (em) =>
      (await itemsTouchedSince(em, startedAt))
        .filter((r) => !copiedAt.has(r.id) || new Date(r.touched_at) > copiedAt.get(r.id)!)
        .map((r) => r.id),
    );
    if (touched.length) await this.syncPoints(touched, false);
    if (pending.length) await this.jobs.send(ITEM_EMBED_JOB, { itemIds: pending }, { retryLimit: 10, retryDelay: 30, retryBackoff: true });
    return { items: ids.length, pending: pending.length };
  }

  /**
   * Follows other instances' changes (in-process index only): items touched since the last look
   * are re-read into this process's index. Writes nothing.
   */
  startSync(intervalMs: number): void {
    this.syncTask.start(intervalMs);
  }

  async sync(): Promise<number> {
    return this.withEm(async (em) => {
      if (!this.watermark) this.watermark = await databaseNow(em, SYNC_LOOKBACK_SECONDS);
      // A little overlap: a transaction may commit a row stamped just before the last look.
      const since = new Date(this.watermark.getTime() - 2_000);
      const rows = await nextTouchedItems(em, since);
      if (!rows.length) return 0;
      await this.syncPoints(rows.map((r) => r.id), false);
      const latest = new Date(rows[rows.length - 1].touched_at);
      if (latest > this.watermark) this.watermark = latest;
      return rows.length;
    });
  }

  async stop(): Promise<void> {
    await this.syncTask.stop();
    await this.background;
  }

  idle(): Promise<void> {
    return this.background;
  }
}
