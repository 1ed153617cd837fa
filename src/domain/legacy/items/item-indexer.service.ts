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

/** The category of the embedding every item gets when it is added. */
export const DEFAULT_CATEGORY = 'document';
export const ITEM_EMBED_JOB = 'legacy.items.embed';
export const ITEM_SWEEP_JOB = 'legacy.items.sweep';
/** The description the service gives the default embeddings it makes. */
export const DEFAULT_DESCRIPTION = 'The default embedding of the item: its document as stored';
const BATCH = 200;
/** Items ranked in Postgres when the vector index is down. */
const EXACT_FALLBACK_MAX = 20_000;

interface ItemRow {
  id: string;
  point_id: string;
  index_id: string;
  item_id: string;
  item_type: string;
  controller_id: string;
  controller_did: string;
  live: boolean;
}

interface VectorRow {
  id: string;
  point_id: string;
  index_id: string;
  controller_id: string;
  vector: number[];
}

const textArray = (ids: string[]) => `{${ids.map((id) => `"${id.replace(/["\\]/g, '')}"`).join(',')}}`;

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
    return em.getConnection().execute<ItemRow[]>(
      `select i.id, i.point_id, i.index_id, i.item_id, i.item_type, x.controller_id, x.controller_did,
              (i.deleted_at is null and x.deleted_at is null) as live
         from legacy_index_items i join legacy_indexes x on x.id = i.index_id
        where i.id = any(?::text[])`,
      [textArray(ids)],
    );
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
            const [current] = await tx.execute<Array<{ id: string }>>(
              `select id from legacy_embeddings
                where index_id = ? and item_id = ? and model_name = ? and category = ? and deleted_at is null for update`,
              [row.index_id, row.item_id, this.embedder.modelName, DEFAULT_CATEGORY],
            );
            if (current) {
              await tx.execute(`update legacy_embeddings set vector = ?::jsonb, dimensions = ?, context = null, version = ?, updated_at = now() where id = ?`, [
                vector,
                v.length,
                newCommitId(current.id),
                current.id,
              ]);
              continue;
            }
            const id = newStreamId();
            await tx.execute(
              `insert into legacy_embeddings (id, index_id, item_id, model_name, category, context, description, vector, dimensions,
                                              controller_id, controller_did, version, created_at, updated_at)
               values (?, ?, ?, ?, ?, null, ?, ?::jsonb, ?, ?, ?, ?, now(), now())
               on conflict (index_id, item_id, model_name, category) where deleted_at is null do nothing`,
              [id, row.index_id, row.item_id, this.embedder.modelName, DEFAULT_CATEGORY, DEFAULT_DESCRIPTION, vector, v.length, row.controller_id, row.controller_did, newCommitId(id)],
            );
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
    await em.execute(`insert into legacy_embedding_models (model_name, dimensions, created_at) values (?, ?, now()) on conflict (model_name) do nothing`, [this.embedder.modelName, dimensions]);
    const [row] = await em.execute<Array<{ dimensions: number }>>(`select dimensions from legacy_embedding_models where model_name = ?`, [this.embedder.modelName]);
    return row.dimensions;
  }

  /**
   * Whether a model name is the service's own (its current embedder's, or one it used before),
   * and then the length its vectors have: `unknown` while the service has made none under it.
   * null: a name users own, per index.
   */
  async ownModelLength(em: EntityManager, modelName: string): Promise<number | 'unknown' | null> {
    const [row] = await em.execute<Array<{ dimensions: number }>>(`select dimensions from legacy_embedding_models where model_name = ?`, [modelName]);
    if (row) return row.dimensions;
    if (modelName !== this.embedder.modelName) return null;
    return this.embedder.dimensions ?? 'unknown';
  }

  /** Indexed now: a change readers see, so updatedAt and version move with it. */
  private async markIndexed(em: EntityManager, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await em.execute(
      `update legacy_index_items i set indexed_at = now(), updated_at = now(), touched_at = now(), version = v.version
         from unnest(?::text[], ?::text[]) as v(id, version) where i.id = v.id`,
      [textArray(ids), textArray(ids.map((id) => newCommitId(id)))],
    );
  }

  /** Waiting for an embedding again; a new version only for items that were indexed until now. */
  private async markWaiting(em: EntityManager, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await em.execute(
      `update legacy_index_items i
          set indexed_at = null, touched_at = now(),
              updated_at = case when i.indexed_at is null then i.updated_at else now() end,
              version = case when i.indexed_at is null then i.version else v.version end
         from unnest(?::text[], ?::text[]) as v(id, version) where i.id = v.id`,
      [textArray(ids), textArray(ids.map((id) => newCommitId(id)))],
    );
  }

  /**
   * A removed item whose entry has left the vector index: indexedAt null. A removed item still
   * stamped indexed is one whose entry may remain (the index was down when it was removed); the
   * sweep (`retryPending`) removes it.
   */
  private async markRemoved(em: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await em.execute(`update legacy_index_items set indexed_at = null, touched_at = now() where id = any(?::text[]) and indexed_at is not null`, [textArray(ids)]);
  }

  /** Only the sync watermark moves: nothing a reader sees changed, but other instances must look. */
  private async touch(em: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await em.execute(`update legacy_index_items set touched_at = now() where id = any(?::text[])`, [textArray(ids)]);
  }

  private async vectorRows(em: EntityManager, ids: string[]): Promise<VectorRow[]> {
    return em.getConnection().execute<VectorRow[]>(
      `select i.id, i.point_id, i.index_id, x.controller_id, e.vector
         from legacy_index_items i
         join legacy_indexes x on x.id = i.index_id and x.deleted_at is null
         join legacy_embeddings e on e.index_id = i.index_id and e.item_id = i.item_id
                                 and e.model_name = ? and e.category = ? and e.deleted_at is null
        where i.id = any(?::text[]) and i.deleted_at is null`,
      [this.embedder.modelName, DEFAULT_CATEGORY, textArray(ids)],
    );
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
      const rows = await em.execute<Array<{ point_id: string; vector: number[] }>>(
        `select i.point_id, e.vector
           from legacy_index_items i
           join legacy_embeddings e on e.index_id = i.index_id and e.item_id = i.item_id
                                   and e.model_name = ? and e.category = ? and e.deleted_at is null
          where i.index_id = any(?::text[]) and i.deleted_at is null
          limit ${EXACT_FALLBACK_MAX}`,
        [this.embedder.modelName, DEFAULT_CATEGORY, textArray(indexIds)],
      );
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
    const ids = await this.withEm(async (em) =>
      (await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where item_id = any(?::text[])`, [textArray(nodeIds)])).map((r) => r.id),
    );
    await this.embedItems(ids);
  }

  /**
   * The sweep (a job every minute, and at start): entries of removed items that stayed in the
   * vector index through an outage leave it, and items still waiting for their default
   * embedding are retried. Returns the ids still waiting.
   */
  async retryPending(): Promise<string[]> {
    const leftovers = await this.withEm(async (em) =>
      (
        await em.getConnection().execute<Array<{ id: string }>>(
          `select i.id from legacy_index_items i join legacy_indexes x on x.id = i.index_id
            where i.indexed_at is not null and (i.deleted_at is not null or x.deleted_at is not null) order by i.touched_at limit 2000`,
        )
      ).map((r) => r.id),
    );
    await this.syncPoints(leftovers);
    const ids = await this.withEm(async (em) =>
      (await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where indexed_at is null and deleted_at is null order by touched_at limit 2000`)).map((r) => r.id),
    );
    return ids.length ? this.embedItems(ids) : [];
  }

  /**
   * At start: the in-process index is filled from the stored default embeddings; then items
   * still waiting for one are embedded in the background.
   */
  async load(options: { fromStore: boolean }): Promise<void> {
    if (options.fromStore) {
      await this.withEm(async (em) => {
        this.watermark = new Date((await em.getConnection().execute<Array<{ now: string }>>(`select now() as now`))[0].now);
        let after = '';
        for (;;) {
          const ids = (
            await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where deleted_at is null and id > ? order by id limit ${BATCH * 5}`, [after])
          ).map((r) => r.id);
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
    return this.withEm(async (em) => {
      const [row] = await em.getConnection().execute<Array<{ count: string }>>(`select count(*) as count from legacy_index_items where indexed_at is null and deleted_at is null`);
      return Number(row.count);
    });
  }

  /**
   * Rebuilds the item index into a copy that replaces it when full (searches keep the old one
   * meanwhile); with `embed`, makes every default embedding again. Items other processes
   * touched while the copy was filled are put again after the switch.
   */
  async reindex(options: { embed: boolean; onProgress?: (p: ReindexProgress) => void }): Promise<{ items: number; pending: number }> {
    const now = (em: EntityManager) => em.getConnection().execute<Array<{ now: Date }>>(`select now() as now`).then((r) => new Date(r[0].now));
    const startedAt = await this.withEm(now);
    const ids = await this.withEm(async (em) => (await em.getConnection().execute<Array<{ id: string }>>(`select id from legacy_index_items where deleted_at is null order by id`)).map((r) => r.id));
    const { copiedAt, pending } = await copyIntoRebuild(
      ids,
      BATCH,
      await this.index.rebuild(),
      async (batch, target) => {
        if (options.embed) return this.embedItems(batch, { retryLater: false, target });
        await this.syncPoints(batch, false, target);
        return [];
      },
      () => this.withEm(now),
      options.onProgress,
    );
    const touched = await this.withEm(async (em) =>
      (await em.getConnection().execute<Array<{ id: string; touched_at: Date }>>(`select id, touched_at from legacy_index_items where touched_at > ?`, [startedAt]))
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
      const conn = em.getConnection();
      if (!this.watermark) this.watermark = new Date((await conn.execute<Array<{ now: string }>>(`select now() - interval '5 seconds' as now`))[0].now);
      // A little overlap: a transaction may commit a row stamped just before the last look.
      const since = new Date(this.watermark.getTime() - 2_000);
      const rows = await conn.execute<Array<{ id: string; touched_at: string }>>(`select id, touched_at from legacy_index_items where touched_at > ? order by touched_at limit 5000`, [since]);
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
