import type * as Qdrant from '@qdrant/js-client-rest' with { 'resolution-mode': 'import' };
import type { IndexedIntent, IndexHit, IndexQuery, VectorIndex } from './vector-index';

// The package also ships CommonJS (its `require` export); TypeScript reads only its ESM typings.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { QdrantClient } = require('@qdrant/js-client-rest') as typeof Qdrant;
export interface QdrantIndexOptions {
  url: string;
  apiKey?: string;
  collection: string;
  timeoutMs?: number;
}

/**
 * Qdrant: one collection of intent vectors (inner product), with the payload discover filters
 * on (networkIds, userId, active) indexed. The collection is created on the first write, sized
 * by the first vector; a collection of another size means the embedder changed, and
 * `npm run reindex` rebuilds it.
 */
export class QdrantVectorIndex implements VectorIndex {
  readonly name = 'qdrant';
  private readonly client: Qdrant.QdrantClient;
  private ready: Promise<void> | null = null;
  private dimensions = 0;

  constructor(private readonly opts: QdrantIndexOptions) {
    this.client = new QdrantClient({ url: opts.url, apiKey: opts.apiKey, timeout: opts.timeoutMs ?? 10_000, checkCompatibility: false });
  }

  private async exists(): Promise<boolean> {
    return (await this.client.collectionExists(this.opts.collection)).exists;
  }

  private ensure(dimensions: number): Promise<void> {
    if (this.dimensions === dimensions && this.ready) return this.ready;
    this.ready = (async () => {
      const name = this.opts.collection;
      if (await this.exists()) {
        const info = await this.client.getCollection(name);
        const vectors = info.config?.params?.vectors as { size?: number } | undefined;
        if (vectors?.size && vectors.size !== dimensions) {
          throw new Error(`Qdrant collection ${name} holds ${vectors.size}-dimensional vectors, not ${dimensions}: run npm run reindex`);
        }
      } else {
        await this.client.createCollection(name, { vectors: { size: dimensions, distance: 'Dot' } });
        await this.client.createPayloadIndex(name, { field_name: 'networkIds', field_schema: 'keyword', wait: true });
        await this.client.createPayloadIndex(name, { field_name: 'userId', field_schema: 'keyword', wait: true });
        await this.client.createPayloadIndex(name, { field_name: 'active', field_schema: 'bool', wait: true });
      }
      this.dimensions = dimensions;
    })();
    this.ready.catch(() => {
      this.ready = null;
    });
    return this.ready;
  }

  async upsert(items: IndexedIntent[]): Promise<void> {
    if (!items.length) return;
    await this.ensure(items[0].vector.length);
    await this.client.upsert(this.opts.collection, {
      wait: true,
      points: items.map((i) => ({
        id: i.id,
        vector: Array.from(i.vector),
        payload: { userId: i.userId, networkIds: i.networkIds, active: i.active },
      })),
    });
  }

  async remove(ids: string[]): Promise<void> {
    if (!ids.length || !(await this.exists())) return;
    await this.client.delete(this.opts.collection, { wait: true, points: ids });
  }

  async search(q: IndexQuery): Promise<IndexHit[]> {
    if (!q.networkIds.length || !(await this.exists())) return [];
    const hits = await this.client.search(this.opts.collection, {
      vector: Array.from(q.vector),
      limit: q.limit,
      with_payload: false,
      filter: {
        must: [
          { key: 'networkIds', match: { any: q.networkIds } },
          { key: 'active', match: { value: true } },
        ],
        ...(q.excludeUserId ? { must_not: [{ key: 'userId', match: { value: q.excludeUserId } }] } : {}),
      },
    });
    return hits.map((h) => ({ id: String(h.id), score: h.score }));
  }

  async idsInNetwork(networkId: string): Promise<string[]> {
    if (!(await this.exists())) return [];
    const ids: string[] = [];
    let offset: string | number | undefined;
    do {
      const page = await this.client.scroll(this.opts.collection, {
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
    if (await this.exists()) await this.client.deleteCollection(this.opts.collection);
    this.ready = null;
    this.dimensions = 0;
  }

  async size(): Promise<number> {
    if (!(await this.exists())) return 0;
    return (await this.client.count(this.opts.collection, { exact: true })).count;
  }

  async ping(): Promise<void> {
    await this.client.collectionExists(this.opts.collection);
  }

  async close(): Promise<void> {
    this.ready = null;
  }
}
