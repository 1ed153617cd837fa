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
  id: string;
  key: bigint;
  vector: Float32Array;
  /** The owner as a small number, the same for every entry of one user (a row's filter compares numbers). */
  owner: number;
  networkIds: string[];
  active: boolean;
  textHash?: string;
}

/** Nonzero coordinates of one dimension across a partition's rows: which row, what value. */
class Postings {
  rows = new Int32Array(8);
  values = new Float32Array(8);
  length = 0;

  push(row: number, value: number): void {
    if (this.length === this.rows.length) {
      const rows = new Int32Array(this.length * 2);
      rows.set(this.rows);
      this.rows = rows;
      const values = new Float32Array(this.length * 2);
      values.set(this.values);
      this.values = values;
    }
    this.rows[this.length] = row;
    this.values[this.length] = value;
    this.length += 1;
  }
}

/**
 * Exact search's view of a partition: its members as rows in the order they were added (a
 * replaced intent goes to the end, as in the members map, so ties keep the members' order), and
 * for each dimension the rows where it is nonzero. Local vectors have a few dozen nonzero
 * coordinates of 256, so a query visits a few thousand postings instead of every coordinate of
 * every row. A removed row stays a hole until holes make up a quarter of the rows, then the rows
 * are laid out again in order. What the filters read (whether a row is live and active, its
 * owner) is kept in typed arrays beside the rows: a scan of a few thousand rows then reads two
 * flat arrays instead of each entry object, which was most of the scan's time (cache misses).
 */
class Rows {
  entries: Array<Entry | null> = [];
  ids: string[] = [];
  postings: Array<Postings | undefined>;
  readonly rowOf = new Map<string, number>();
  holes = 0;
  /** 1 where the row is there (not a hole) and its intent active. */
  searchable = new Uint8Array(64);
  owners = new Int32Array(64);

  constructor(readonly dimensions: number) {
    this.postings = new Array<Postings | undefined>(dimensions);
  }

  add(id: string, e: Entry): void {
    const r = this.ids.length;
    const v = e.vector;
    for (let d = 0; d < v.length; d++) {
      if (v[d] === 0) continue;
      (this.postings[d] ??= new Postings()).push(r, v[d]);
    }
    if (r === this.owners.length) this.grow();
    this.searchable[r] = e.active ? 1 : 0;
    this.owners[r] = e.owner;
    this.entries.push(e);
    this.ids.push(id);
    this.rowOf.set(id, r);
  }

  remove(id: string): void {
    const r = this.rowOf.get(id);
    if (r === undefined) return;
    this.rowOf.delete(id);
    this.entries[r] = null;
    this.searchable[r] = 0;
    this.holes += 1;
    if (this.holes * 4 > this.ids.length) this.layOut();
  }

  private grow(): void {
    const searchable = new Uint8Array(this.owners.length * 2);
    searchable.set(this.searchable);
    this.searchable = searchable;
    const owners = new Int32Array(this.owners.length * 2);
    owners.set(this.owners);
    this.owners = owners;
  }

  private layOut(): void {
    const { entries, ids } = this;
    this.entries = [];
    this.ids = [];
    this.postings = new Array<Postings | undefined>(this.dimensions);
    this.rowOf.clear();
    this.holes = 0;
    this.searchable.fill(0);
    for (let r = 0; r < ids.length; r++) if (entries[r]) this.add(ids[r], entries[r]!);
  }
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
 * Every row's inner product with `q` through the postings, the same number `dot` gives: each
 * coordinate goes to the running sum `dot` adds it to (i mod 4; a tail past the last multiple of
 * four to the first), in the same order, and a coordinate where either side is zero adds nothing
 * to any sum, so skipping it changes no score.
 */
function dotsByPostings(q: Float32Array, rows: Rows): Float64Array {
  const count = rows.entries.length;
  const sums = [new Float64Array(count), new Float64Array(count), new Float64Array(count), new Float64Array(count)];
  const n = q.length - (q.length % 4);
  for (let lane = 0; lane < 4; lane++) {
    const sum = sums[lane];
    const visit = (d: number) => {
      const p = rows.postings[d];
      if (q[d] === 0 || !p) return;
      const qd = q[d];
      const { rows: at, values, length } = p;
      for (let j = 0; j < length; j++) sum[at[j]] += qd * values[j];
    };
    for (let d = lane; d < n; d += 4) visit(d);
    if (lane === 0) for (let d = n; d < q.length; d++) visit(d);
  }
  const [s0, s1, s2, s3] = sums;
  for (let r = 0; r < count; r++) s0[r] = s0[r] + s1[r] + s2[r] + s3[r];
  return s0;
}

/** Whether visiting the query's postings costs less than reading every row's vector. */
/**
 * The value a numeric sort of `values` would put at `k` (0-based), found by selection in place
 * (Hoare's quickselect, median of three): linear on average, where sorting a partition's few
 * thousand scores per query cost more than scoring them. Scores are finite numbers.
 */
export function nthSmallest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot: sorted scores (common: rows added best first) stay linear.
    const a = values[lo];
    const b = values[mid];
    const c = values[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k];
  }
  return values[k];
}

function postingsPay(q: Float32Array, rows: Rows): boolean {
  let visits = 0;
  for (let d = 0; d < q.length; d++) if (q[d] !== 0) visits += rows.postings[d]?.length ?? 0;
  return visits * 2 < rows.entries.length * rows.dimensions;
}

/** The intents of one network; an HNSW graph is kept once the network is large (or always, in hnsw mode). */
class Partition {
  /** Its intents by id, in the order they were added. */
  readonly members = new Map<string, Entry>();
  graph: Index | null = null;
  /** Kept unless every search of this index goes through a graph (hnsw mode). */
  rows: Rows | null = null;
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
  /** Entries by graph key, as a number: a Map hashes a number at once, a bigint digit by digit. */
  private byKey = new Map<number, Entry>();
  private nextKey = 1n;
  /** Each owner's number (Entry.owner); kept for the index's life, a few bytes per user. */
  private owners = new Map<string, number>();
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
      if (this.mode !== 'hnsw') p.rows = new Rows(this.dimensions);
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
      p.rows?.remove(id);
      if (p.graph) p.graph.remove(e.key);
      if (p.members.size === 0) this.partitions.delete(n);
    }
    this.entries.delete(id);
    this.byKey.delete(Number(e.key));
  }

  async upsert(items: IndexedIntent[]): Promise<void> {
    for (const item of items) {
      if (!this.dimensions) this.dimensions = item.vector.length;
      if (item.vector.length !== this.dimensions) {
        throw new Error(`vector of ${item.vector.length} dimensions in an index of ${this.dimensions}`);
      }
      this.detach(item.id);
      const key = this.nextKey++;
      let owner = this.owners.get(item.userId);
      if (owner === undefined) this.owners.set(item.userId, (owner = this.owners.size));
      const entry: Entry = { id: item.id, key, vector: item.vector, owner, networkIds: [...new Set(item.networkIds)], active: item.active, textHash: item.textHash };
      this.entries.set(item.id, entry);
      this.byKey.set(Number(key), entry);
      for (const n of entry.networkIds) {
        const p = this.partition(n);
        p.members.set(item.id, entry);
        p.rows?.add(item.id, entry);
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
    const excluded = q.excludeUserId === undefined ? -1 : (this.owners.get(q.excludeUserId) ?? -1);
    const lists: IndexHit[][] = [];
    for (const n of new Set(q.networkIds)) {
      const p = this.partitions.get(n);
      if (p) lists.push(p.graph && this.usesGraph(p) ? this.searchGraph(p, q, excluded) : this.searchExact(p, q, excluded));
    }
    let hits = lists.length === 1 ? lists[0] : [];
    if (lists.length > 1) {
      // An intent shared in several of the networks counts once, with its best score.
      const best = new Map<string, IndexHit>();
      for (const list of lists) for (const h of list) if ((best.get(h.id)?.score ?? -Infinity) < h.score) best.set(h.id, h);
      hits = [...best.values()];
    }
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, q.limit);
  }

  private static hit(id: string, score: number, e: Entry): IndexHit {
    return e.textHash === undefined ? { id, score } : { id, score, textHash: e.textHash };
  }

  /**
   * Every row that passes the filters is scored (through the postings when the query's nonzero
   * coordinates are few, else vector by vector); the best `limit` are picked by a threshold (the
   * limit-th best score, found by a numeric sort of the scores) rather than by sorting hit
   * objects, and only they are sorted: best first, ties in the members' order.
   */
  private searchExact(p: Partition, q: IndexQuery, excluded: number): IndexHit[] {
    const rows = p.rows!;
    const { entries, searchable, owners } = rows;
    const count = entries.length;
    const dots = postingsPay(q.vector, rows) ? dotsByPostings(q.vector, rows) : null;
    const scores = new Float64Array(count);
    const at = new Int32Array(count);
    let n = 0;
    for (let r = 0; r < count; r++) {
      if (searchable[r] === 0 || owners[r] === excluded) continue;
      scores[n] = dots ? dots[r] : dot(q.vector, entries[r]!.vector);
      at[n] = r;
      n += 1;
    }
    const picked: number[] = [];
    if (n <= q.limit) {
      for (let k = 0; k < n; k++) picked.push(k);
    } else {
      const threshold = nthSmallest(scores.slice(0, n), n - q.limit);
      let ties = q.limit;
      for (let k = 0; k < n; k++) if (scores[k] > threshold) ties -= 1;
      for (let k = 0; k < n; k++) {
        if (scores[k] > threshold) picked.push(k);
        else if (scores[k] === threshold && ties > 0) {
          picked.push(k);
          ties -= 1;
        }
      }
    }
    picked.sort((a, b) => scores[b] - scores[a] || at[a] - at[b]);
    return picked.map((k) => LocalVectorIndex.hit(rows.ids[at[k]], scores[k], entries[at[k]]!));
  }

  private searchGraph(p: Partition, q: IndexQuery, excluded: number): IndexHit[] {
    const graph = p.graph!;
    let k = Math.min(p.members.size, Math.max(q.limit * 2, q.limit + 16));
    for (;;) {
      const m = graph.search(q.vector, k, 0);
      const hits: IndexHit[] = [];
      for (let i = 0; i < m.keys.length; i++) {
        const e = this.byKey.get(Number(m.keys[i]));
        // Inner-product distance is 1 - dot.
        if (e && e.active && e.owner !== excluded) hits.push(LocalVectorIndex.hit(e.id, 1 - m.distances[i], e));
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
    this.owners.clear();
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
        this.owners = copy.owners;
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
