import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../auth/actor';
import { LegacyEmbedding } from '../../../entities/legacy-embedding.entity';
import type { LegacyIndexItem } from '../../../entities/legacy-index-item.entity';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { newCommitId, newStreamId } from '../../shared/stream-id';
import { parseInput } from '../../shared/validation';
import type { IndexService } from '../indexes/index.service';
import { DEFAULT_CATEGORY, type ItemIndexer } from '../items/item-indexer.service';
import type { ItemService } from '../items/item.service';
import { legacyCaller } from '../legacy-caller';
import { embeddingNotFound, invalidField } from '../legacy.errors';
import {
  insertEmbeddingOnce,
  liveEmbedding,
  liveEmbeddingsOf,
  registerIndexModelLength,
  reloadEmbedding,
  saveEmbedding,
  softDeleteEmbedding,
  type EmbeddingKey,
} from './embeddings.repository';
import { createEmbeddingSchema, EMBEDDINGS_DEFAULT_TAKE, listEmbeddingsSchema, naturalKeySchema, updateEmbeddingSchema } from './embedding.schemas';

type NaturalKey = EmbeddingKey;

const wrongLength = (modelName: string, expected: number, got: number) =>
  invalidField('vector', `Vectors of model ${modelName} have ${expected} components; this one has ${got}`);

/**
 * Embeddings of index items: vectors of any length per model name, named by their natural key.
 * A user's model name has one length per index (its first vector there fixes it); the service's
 * own model names have the length of the service's vectors. Only the index's controller writes.
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
    return liveEmbedding(this.em, key);
  }

  /**
   * The key as stored: the item must be live in a live index (404 otherwise, a removed item
   * included), and its node id is spelled as the item holds it (intent ids in any case).
   */
  private async resolveKey(req: NaturalKey): Promise<{ key: NaturalKey; item: LegacyIndexItem }> {
    const item = await this.items.requireLive(req.indexId, req.itemId);
    return { item, key: { indexId: item.indexId, itemId: item.itemId, modelName: req.modelName, category: req.category } };
  }

  /**
   * Refuses a vector whose length is not its model's. A name the service embeds with keeps the
   * service's length, so no user can make the service's own vectors "wrong"; any other name has
   * the length its first vector in this index had, so no user constrains another's index.
   */
  private async checkLength(em: EntityManager, indexId: string, modelName: string, length: number): Promise<void> {
    const own = await this.indexer.ownModelLength(em, modelName);
    if (own === 'unknown') {
      throw invalidField('vector', `Vectors of model ${modelName} are made by this service, which has not made one yet; their length is not known`);
    }
    if (own !== null) {
      if (own !== length) throw wrongLength(modelName, own, length);
      return;
    }
    const dimensions = await registerIndexModelLength(em, indexId, modelName, length);
    if (dimensions !== length) throw wrongLength(modelName, dimensions, length);
  }

  /** The item's vector index entry follows its default embedding. */
  private async followDefault(e: LegacyEmbedding, item: LegacyIndexItem): Promise<void> {
    if (e.modelName !== this.indexer.embedder.modelName || e.category !== DEFAULT_CATEGORY) return;
    await this.indexer.syncPoints([item.id]);
  }

  /** Creates an embedding; on a key that already has one, answers that one unchanged. */
  async create(actor: Actor, input: unknown): Promise<LegacyEmbedding> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(createEmbeddingSchema, input ?? {});
    await this.indexes.requireControlled(caller, req.indexId);
    const { key, item } = await this.resolveKey(req);
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
    await this.checkLength(this.em, key.indexId, key.modelName, vector.length);
    if (!(await insertEmbeddingOnce(this.em, e))) {
      // The same key created at the same moment by another request: that one stands.
      const winner = await this.findLive(key);
      if (winner) return winner;
      throw new Error(`An embedding of this key was written by another request and is gone again`);
    }
    await this.followDefault(e, item);
    return e;
  }

  async update(actor: Actor, input: unknown): Promise<LegacyEmbedding> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(updateEmbeddingSchema, input ?? {});
    await this.indexes.requireControlled(caller, req.indexId);
    const { key, item } = await this.resolveKey(req);
    const e = await this.findLive(key);
    if (!e) throw embeddingNotFound();
    if (req.vector) {
      await this.checkLength(this.em, key.indexId, e.modelName, req.vector.length);
      e.vector = req.vector;
      e.dimensions = req.vector.length;
    }
    if (req.context !== undefined) e.context = req.context;
    if (req.description !== undefined) e.description = req.description;
    e.updatedAt = new Date();
    e.version = newCommitId(e.id);
    await saveEmbedding(this.em, e);
    await this.followDefault(e, item);
    return e;
  }

  /**
   * Soft delete of the embedding the key in the body names. The write is conditional: of
   * concurrent deletes one wins and the others find nothing left to delete (404), as a delete
   * sent after it would.
   */
  async delete(actor: Actor, input: unknown): Promise<LegacyEmbedding> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(naturalKeySchema, input ?? {});
    await this.indexes.requireControlled(caller, req.indexId);
    const { key, item } = await this.resolveKey(req);
    const e = await this.findLive(key);
    if (!e) throw embeddingNotFound();
    if (!(await softDeleteEmbedding(this.em, e.id, newCommitId(e.id)))) throw embeddingNotFound();
    await reloadEmbedding(this.em, e);
    await this.followDefault(e, item);
    return e;
  }

  /** The live embeddings of a live item in a live index, oldest first; anyone may read them. */
  async list(input: unknown): Promise<LegacyEmbedding[]> {
    const req = parseInput(listEmbeddingsSchema, input ?? {});
    const item = await this.items.requireLive(req.indexId, req.itemId);
    return liveEmbeddingsOf(this.em, {
      indexId: item.indexId,
      itemId: item.itemId,
      modelName: req.modelName ?? undefined,
      categories: req.categories ?? undefined,
      offset: req.skip ?? 0,
      limit: req.take ?? EMBEDDINGS_DEFAULT_TAKE,
    });
  }
}
