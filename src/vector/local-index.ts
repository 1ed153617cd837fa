import { Index, MetricKind, ScalarKind } from 'usearch';
import type { IndexedIntent, IndexHit, IndexQuery, IndexRebuild, VectorIndex } from './vector-index';

export type LocalIndexMode = 'auto' | 'exact' | 'hnsw';

export interface LocalIndexOptions {
  mode?: LocalIndexMode;
  /** In auto mode, a network with more intents than this is searched through HNSW. */
  exactMax?: number;
  /** HNSW search breadth (usearch expansion_search). */
  expansionSearch?: number;
}

interface Entry {
  key: bigint;
  vector: Float32Array;
  userId: string;
  networkIds: string[];
  active: boolean;
}

/** The intents of one network; an HNSW graph is kept once the network is large (or always, in hnsw mode). */
class Partition {
  /** Its intents by id; exact search walks the entries without a lookup per intent. */
  readonly members = new Map<string, Entry>();
  graph: Index | null = null;
}

// Four running sums: the exact scan is most of discover's index time, and this halves it in V8.
function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length - (a.length % 4);
  let i = 0;
  for (; i < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < a.length; i++) s0 += a[i] * b[i];
  return s0 + s1 + s2 + s3;
}

/**
 * The in-process index: one partition per network, so the network filter is a lookup rather
 * than a scan. Small partitions are searched exactly; large ones through a usearch HNSW graph,
 * over-fetching and widening until enough candidates pass the owner and status filters.
 */
export class LocalVectorIndex implements VectorIndex {
  readonly name = 'local';
  private entries = new Map<string, Entry>();
  private partitions = new Map<string, Partition>();
  private byKey = new Map<bigint, string>();
  private nextKey = 1n;
  private dimensions = 0;
  private readonly mode: LocalIndexMode;
  private readonly exactMax: number;
  private readonly expansionSearch: number;

  constructor(private readonly opts: LocalIndexOptions = {}) {
    this.mode = opts.mode ?? 'auto';
    this.exactMax = opts.exactMax ?? 5_000;
    this.expansionSearch = opts.expansionSearch ?? 128;
  }

  private usesGraph(p: Partition): boolean {
    return this.mode === 'hnsw' || (this.mode === 'auto' && p.members.size > this.exactMax);
  }

  private newGraph(): Index {
    return new Index({
      dimensions: this.dimensions,
      metric: MetricKind.IP,
      quantization: ScalarKind.F32,
      connectivity: 16,
      expansion_add: 128,
      expansion_search: this.expansionSearch,
      multi: false,
    });
  }

  private partition(networkId: string): Partition {
    let p = this.partitions.get(networkId);
    if (!p) {
      p = new Partition();
      this.partitions.set(networkId, p);
    }
    return p;
  }

  private detach(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    for (const n of e.networkIds) {
      const p = this.partitions.get(n);
      if (!p) continue;
      p.members.delete(id);
      if (p.graph) p.graph.remove(e.key);
      if (p.members.size === 0) this.partitions.delete(n);
    }
    this.entries.delete(id);
    this.byKey.delete(e.key);
  }

  async upsert(items: IndexedIntent[]): Promise<void> {
    for (const item of items) {
      if (!this.dimensions) this.dimensions = item.vector.length;
      if (item.vector.length !== this.dimensions) {
        throw new Error(`vector of ${item.vector.length} dimensions in an index of ${this.dimensions}`);
      }
      this.detach(item.id);
      const key = this.nextKey++;
      const entry: Entry = { key, vector: item.vector, userId: item.userId, networkIds: [...new Set(item.networkIds)], active: item.active };
      this.entries.set(item.id, entry);
      this.byKey.set(key, item.id);
      for (const n of entry.networkIds) {
        const p = this.partition(n);
        p.members.set(item.id, entry);
        if (p.graph) p.graph.add(key, entry.vector);
        else if (this.usesGraph(p)) this.buildGraph(p);
      }
    }
  }

  private buildGraph(p: Partition): void {
    p.graph = this.newGraph();
    for (const e of p.members.values()) p.graph.add(e.key, e.vector);
  }

  async remove(ids: string[]): Promise<void> {
    for (const id of ids) this.detach(id);
  }

  async search(q: IndexQuery): Promise<IndexHit[]> {
    const best = new Map<string, number>();
    const passes = (id: string) => {
      const e = this.entries.get(id);
      return !!e && e.active && e.userId !== q.excludeUserId;
    };
    for (const n of new Set(q.networkIds)) {
      const p = this.partitions.get(n);
      if (!p) continue;
      const hits = p.graph && this.usesGraph(p) ? this.searchGraph(p, q, passes) : this.searchExact(p, q);
      for (const h of hits) if ((best.get(h.id) ?? -Infinity) < h.score) best.set(h.id, h.score);
    }
    return [...best.entries()]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, q.limit);
  }

  private searchExact(p: Partition, q: IndexQuery): IndexHit[] {
    const hits: IndexHit[] = [];
    for (const [id, e] of p.members) {
      if (!e.active || e.userId === q.excludeUserId) continue;
      hits.push({ id, score: dot(q.vector, e.vector) });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, q.limit);
  }

  private searchGraph(p: Partition, q: IndexQuery, passes: (id: string) => boolean): IndexHit[] {
    const graph = p.graph!;
    let k = Math.min(p.members.size, Math.max(q.limit * 2, q.limit + 16));
    for (;;) {
      const m = graph.search(q.vector, k, 0);
      const hits: IndexHit[] = [];
      for (let i = 0; i < m.keys.length; i++) {
        const id = this.byKey.get(m.keys[i]);
        // Inner-product distance is 1 - dot.
        if (id && passes(id)) hits.push({ id, score: 1 - m.distances[i] });
      }
      if (hits.length >= q.limit || k >= p.members.size) return hits.slice(0, q.limit);
      k = Math.min(p.members.size, k * 4);
    }
  }

  async idsInNetwork(networkId: string): Promise<string[]> {
    return [...(this.partitions.get(networkId)?.members.keys() ?? [])];
  }

  async clear(): Promise<void> {
    this.entries.clear();
    this.partitions.clear();
    this.byKey.clear();
    this.dimensions = 0;
  }

  /** The copy is another instance; committing takes over its contents in one synchronous step. */
  async rebuild(): Promise<IndexRebuild> {
    const copy = new LocalVectorIndex(this.opts);
    return {
      target: copy,
      commit: async () => {
        this.entries = copy.entries;
        this.partitions = copy.partitions;
        this.byKey = copy.byKey;
        this.nextKey = copy.nextKey;
        this.dimensions = copy.dimensions;
      },
      abort: () => copy.clear(),
    };
  }

  async size(): Promise<number> {
    return this.entries.size;
  }

  async ping(): Promise<void> {
    // In process: always reachable.
  }

  async close(): Promise<void> {
    await this.clear();
  }
}
