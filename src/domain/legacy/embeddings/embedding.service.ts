import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../../auth/actor';
import { LegacyEmbedding } from '../../../entities/legacy-embedding.entity';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { newCommitId, newStreamId } from '../../shared/stream-id';
import { parseInput } from '../../shared/validation';
import type { IndexService } from '../indexes/index.service';
import { DEFAULT_CATEGORY, type ItemIndexer } from '../items/item-indexer.service';
import type { ItemService } from '../items/item.service';
import { legacyCaller } from '../legacy-caller';
import { embeddingNotFound, invalidField } from '../legacy.errors';
import { createEmbeddingSchema, EMBEDDINGS_DEFAULT_TAKE, listEmbeddingsSchema, naturalKeySchema, updateEmbeddingSchema } from './embedding.schemas';

type NaturalKey = { indexId: string; itemId: string; modelName: string; category: string };

/**
 * Embeddings of index items: vectors of any dimension per model name (the first vector of a
 * model fixes its dimension), named by their natural key. Only the index's controller writes.
 */
export class EmbeddingService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly indexes: IndexService,
    private readonly items: ItemService,
    private readonly indexer: ItemIndexer,
  ) {
    super(core);
  }

  private findLive(key: NaturalKey): Promise<LegacyEmbedding | null> {
    return this.em.findOne(LegacyEmbedding, { ...key, deletedAt: null });
  }

  /** Refuses a vector whose length is not the one its model name has. */
  private async checkDimensions(em: EntityManager, modelName: string, dimensions: number): Promise<void> {
    await em.execute(`insert into legacy_embedding_models (model_name, dimensions, created_at) values (?, ?, now()) on conflict (model_name) do nothing`, [modelName, dimensions]);
    const [row] = await em.execute<Array<{ dimensions: number }>>(`select dimensions from legacy_embedding_models where model_name = ?`, [modelName]);
    if (row.dimensions !== dimensions) {
      throw invalidField('vector', `Vectors of model ${modelName} have ${row.dimensions} components; this one has ${dimensions}`);
    }
  }

  /** The item's vector index entry follows its default embedding. */
  private async followDefault(e: LegacyEmbedding): Promise<void> {
    if (e.modelName !== this.indexer.embedder.modelName || e.category !== DEFAULT_CATEGORY) return;
    const item = await this.items.requireLive(e.indexId, e.itemId).catch(() => null);
    if (item) await this.indexer.syncPoints([item.id]);
  }

  /** Creates an embedding; on a key that already has one, answers that one unchanged. */
  async create(actor: Actor | null, input: unknown): Promise<LegacyEmbedding> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(createEmbeddingSchema, input ?? {});
    await this.indexes.requireControlled(caller, req.indexId);
    const item = await this.items.requireLive(req.indexId, req.itemId);
    const key: NaturalKey = { indexId: req.indexId, itemId: item.itemId, modelName: req.modelName, category: req.category };
    const existing = await this.findLive(key);
    if (existing) return existing;
    const vector = req.vector;
    const e = new LegacyEmbedding();
    Object.assign(e, key);
    e.id = newStreamId();
    e.version = newCommitId(e.id);
    e.vector = vector;
    e.dimensions = vector.length;
    e.context = req.context ?? null;
    e.description = req.description ?? null;
    e.controllerId = caller.userId;
    e.controllerDid = caller.did;
    // The registry row may outlive a failed insert: it only records what the model produces.
    await this.checkDimensions(this.em, key.modelName, vector.length);
    try {
      await this.em.persistAndFlush(e);
    } catch (err) {
      // The same key created at the same moment by another request: that one stands.
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      this.em.clear();
      const winner = await this.findLive(key);
      if (winner) return winner;
      throw err;
    }
    await this.followDefault(e);
    return e;
  }

  async update(actor: Actor | null, input: unknown): Promise<LegacyEmbedding> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(updateEmbeddingSchema, input ?? {});
    await this.indexes.requireControlled(caller, req.indexId);
    const e = await this.findLive({ indexId: req.indexId, itemId: req.itemId, modelName: req.modelName, category: req.category });
    if (!e) throw embeddingNotFound();
    if (req.vector) {
      await this.checkDimensions(this.em, e.modelName, req.vector.length);
      e.vector = req.vector;
      e.dimensions = req.vector.length;
    }
    if (req.context !== undefined) e.context = req.context;
    if (req.description !== undefined) e.description = req.description;
    e.updatedAt = new Date();
    e.version = newCommitId(e.id);
    await this.em.flush();
    await this.followDefault(e);
    return e;
  }

  /** Soft delete of the embedding the key in the body names. */
  async delete(actor: Actor | null, input: unknown): Promise<LegacyEmbedding> {
    const caller = await legacyCaller(this.em, actor);
    const key = parseInput(naturalKeySchema, input ?? {});
    await this.indexes.requireControlled(caller, key.indexId);
    const e = await this.findLive(key);
    if (!e) throw embeddingNotFound();
    e.deletedAt = new Date();
    e.updatedAt = e.deletedAt;
    e.version = newCommitId(e.id);
    await this.em.flush();
    await this.followDefault(e);
    return e;
  }

  /** The live embeddings of an item in a live index, oldest first; anyone may read them. */
  async list(input: unknown): Promise<LegacyEmbedding[]> {
    const req = parseInput(listEmbeddingsSchema, input ?? {});
    await this.indexes.requireLive(req.indexId);
    const where: Record<string, unknown> = { indexId: req.indexId, itemId: { $in: [req.itemId, req.itemId.toLowerCase()] }, deletedAt: null };
    if (req.modelName) where.modelName = req.modelName;
    if (req.categories?.length) where.category = { $in: req.categories };
    return this.em.find(LegacyEmbedding, where, {
      orderBy: { createdAt: 'asc', id: 'asc' },
      offset: req.skip ?? 0,
      limit: req.take ?? EMBEDDINGS_DEFAULT_TAKE,
    });
  }
}
