import type * as Qdrant from '@qdrant/js-client-rest' with { 'resolution-mode': 'import' };
import type { IndexedIntent, IndexHit, IndexQuery, IndexRebuild, VectorIndex } from './vector-index';

export interface QdrantIndexOptions {
  url: string;
  apiKey?: string;
  /** The name searches and writes use: an alias of the collection in service (QDRANT_COLLECTION). */
  collection: string;
  timeoutMs?: number;
}

const PAYLOAD_FIELDS = [
  { field_name: 'networkIds', field_schema: 'keyword' },
  { field_name: 'userId', field_schema: 'keyword' },
  { field_name: 'active', field_schema: 'bool' },
] as const;

/**
 * Qdrant: intent vectors (inner product) with the payload discover filters on (networkIds,
 * userId, active) indexed. Reads and writes go through an alias named QDRANT_COLLECTION; the
 * collection behind it is `<alias>_<time it was made>`. A rebuild (`npm run reindex`) fills a
 * new collection while searches keep reading the old one, then moves the alias in one request,
 * so search never goes empty (docs/adr/0104-reindex-behind-an-alias.md). A collection of
 * another vector size means the embedder changed, and reindex makes one of the new size.
 * An installation from before aliases has a plain collection under that name: it keeps working,
 * and the first reindex replaces it with an alias.
 */
export class QdrantVectorIndex implements VectorIndex {
  readonly name = 'qdrant';
  private readonly client: Qdrant.QdrantClient;
  private ready: Promise<void> | null = null;
  private dimensions = 0;

  constructor(private readonly opts: QdrantIndexOptions) {
    // The client compares its version with the server's once, and warns when they are more than a minor version apart.
    // The package also ships CommonJS (its `require` export); TypeScript reads only its ESM typings.
    // Required here, not at import: the client and undici (about 100 modules) load only where QDRANT_URL is set.
    const { QdrantClient } = require('@qdrant/js-client-rest') as typeof Qdrant;
    this.client = new QdrantClient({ url: opts.url, apiKey: opts.apiKey, timeout: opts.timeoutMs ?? 10_000, checkCompatibility: true });
  }

  private get alias(): string {
    return this.opts.collection;
  }

  /** Whether the alias (or a plain collection of that name) exists; Qdrant resolves aliases here. */
  private async exists(): Promise<boolean> {
    return (await this.client.collectionExists(this.alias)).exists;
  }

  /** The collection the alias points at; null when there is no alias of that name. */
  private async aliasTarget(): Promise<string | null> {
    const { aliases } = await this.client.getAliases();
    return aliases.find((a) => a.alias_name === this.alias)?.collection_name ?? null;
  }

  private newCollectionName(): string {
    return `${this.alias}_${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, '0')}`;
  }

  private async createCollection(name: string, dimensions: number): Promise<void> {
    await this.client.createCollection(name, { vectors: { size: dimensions, distance: 'Dot' } });
    for (const f of PAYLOAD_FIELDS) await this.client.createPayloadIndex(name, { ...f, wait: true });
  }

  private ensure(dimensions: number): Promise<void> {
    if (this.dimensions === dimensions && this.ready) return this.ready;
    this.ready = (async () => {
      if (await this.exists()) {
        const info = await this.client.getCollection(this.alias);
        const vectors = info.config?.params?.vectors as { size?: number } | undefined;
        if (vectors?.size && vectors.size !== dimensions) {
          throw new Error(`Qdrant collection ${this.alias} holds ${vectors.size}-dimensional vectors, not ${dimensions}: run npm run reindex`);
        }
      } else {
        const made = this.newCollectionName();
        await this.createCollection(made, dimensions);
        try {
          await this.client.updateCollectionAliases({ actions: [{ create_alias: { collection_name: made, alias_name: this.alias } }] });
        } catch (err) {
          // Another instance made the alias first: use its collection, drop ours.
          await this.client.deleteCollection(made).catch(() => undefined);
          if (!(await this.exists())) throw err;
        }
      }
      this.dimensions = dimensions;
    })();
    this.ready.catch(() => {
      this.ready = null;
    });
    return this.ready;
  }

  private points(items: IndexedIntent[]) {
    return items.map((i) => ({
      id: i.id,
      vector: Array.from(i.vector),
      payload: { userId: i.userId, networkIds: i.networkIds, active: i.active, ...(i.textHash ? { textHash: i.textHash } : {}) },
    }));
  }

  async upsert(items: IndexedIntent[]): Promise<void> {
    if (!items.length) return;
    await this.ensure(items[0].vector.length);
    await this.client.upsert(this.alias, { wait: true, points: this.points(items) });
  }

  async remove(ids: string[]): Promise<void> {
    if (!ids.length || !(await this.exists())) return;
    await this.client.delete(this.alias, { wait: true, points: ids });
  }

  async search(q: IndexQuery): Promise<IndexHit[]> {
    if (!q.networkIds.length || !(await this.exists())) return [];
    const hits = await this.client.search(this.alias, {
      vector: Array.from(q.vector),
      limit: q.limit,
      with_payload: ['textHash'],
      filter: {
        must: [
          { key: 'networkIds', match: { any: q.networkIds } },
          { key: 'active', match: { value: true } },
        ],
        ...(q.excludeUserId ? { must_not: [{ key: 'userId', match: { value: q.excludeUserId } }] } : {}),
      },
    });
    return hits.map((h) => {
      const textHash = h.payload?.textHash;
      return typeof textHash === 'string' ? { id: String(h.id), score: h.score, textHash } : { id: String(h.id), score: h.score };
    });
  }

  async idsInNetwork(networkId: string): Promise<string[]> {
    if (!(await this.exists())) return [];
    const ids: string[] = [];
    let offset: string | number | undefined;
    do {
      const page = await this.client.scroll(this.alias, {
        filter: { must: [{ key: 'networkIds', match: { value: networkId } }] },
        limit: 1000,
        with_payload: false,
        with_vector: false,
        ...(offset !== undefined ? { offset } : {}),
      });
      for (const p of page.points) ids.push(String(p.id));
      offset = (page.next_page_offset ?? undefined) as string | number | undefined;
    } while (offset !== undefined);
    return ids;
  }

  async clear(): Promise<void> {
    const target = await this.aliasTarget();
    if (target) {
      await this.client.updateCollectionAliases({ actions: [{ delete_alias: { alias_name: this.alias } }] });
      await this.client.deleteCollection(target);
    } else if (await this.exists()) {
      await this.client.deleteCollection(this.alias);
    }
    this.ready = null;
    this.dimensions = 0;
  }

  /**
   * A new collection, made on the first write (its size is the first vector's), that the alias
   * moves to on commit; the old collection is then dropped. Until then every search and every
   * write of the running service goes to the old one.
   */
  async rebuild(): Promise<IndexRebuild> {
    const made = this.newCollectionName();
    let size: number | null = null;
    const target = {
      upsert: async (items: IndexedIntent[]) => {
        if (!items.length) return;
        if (size === null) {
          await this.createCollection(made, items[0].vector.length);
          size = items[0].vector.length;
        }
        await this.client.upsert(made, { wait: true, points: this.points(items) });
      },
      remove: async (ids: string[]) => {
        if (size !== null && ids.length) await this.client.delete(made, { wait: true, points: ids });
      },
    };
    return {
      target,
      commit: async () => {
        const previous = await this.aliasTarget();
        const plain = previous === null && (await this.exists());
        if (size === null) {
          // Nothing to index: the truth is an empty index.
          await this.clear();
          return;
        }
        // Once, for an installation from before aliases: the plain collection must go before an
        // alias can take its name, so searches miss for the moment between these two requests.
        if (plain) await this.client.deleteCollection(this.alias);
        await this.client.updateCollectionAliases({
          actions: [...(previous ? [{ delete_alias: { alias_name: this.alias } }] : []), { create_alias: { collection_name: made, alias_name: this.alias } }],
        });
        if (previous) await this.client.deleteCollection(previous);
        this.ready = null;
        this.dimensions = 0;
      },
      abort: async () => {
        if (size !== null) await this.client.deleteCollection(made).catch(() => undefined);
      },
    };
  }

  async size(): Promise<number> {
    if (!(await this.exists())) return 0;
    return (await this.client.count(this.alias, { exact: true })).count;
  }

  async ping(): Promise<void> {
    await this.client.collectionExists(this.alias);
  }

  async close(): Promise<void> {
    this.ready = null;
  }
}
