/** One intent in the index, with the payload searches filter on. */
export interface IndexedIntent {
  id: string;
  vector: Float32Array;
  userId: string;
  networkIds: string[];
  /** Active and not archived. */
  active: boolean;
  /**
   * The hash of the text the entry was made from (`intent_vectors.text_hash`), handed back with
   * each hit so discover can rank by readings it keeps before it reads any row (ADR 0118).
   */
  textHash?: string;
}

export interface IndexQuery {
  vector: Float32Array;
  /** Only intents shared in one of these networks. */
  networkIds: string[];
  /** Leaves out this owner's intents. */
  excludeUserId?: string;
  limit: number;
}

export interface IndexHit {
  id: string;
  /** Inner product of the query vector and the intent's vector. */
  score: number;
  /** The entry's text hash, when it was indexed with one. */
  textHash?: string;
}

/**
 * A fresh copy of an index being filled while searches keep reading the one in service
 * (`npm run reindex`). `commit` puts the copy in service in one step; `abort` drops it.
 */
export interface IndexRebuild {
  readonly target: Pick<VectorIndex, 'upsert' | 'remove'>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * The vector index behind discover: the in-process index (usearch) or Qdrant. Both answer the
 * same contract (test/matching/vector-index.contract.ts). The index only narrows candidates;
 * discover checks every candidate against Postgres before showing it.
 */
export interface VectorIndex {
  readonly name: string;
  upsert(items: IndexedIntent[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  search(query: IndexQuery): Promise<IndexHit[]>;
  /** Ids of the intents whose payload names this network. */
  idsInNetwork(networkId: string): Promise<string[]>;
  /** Removes everything. */
  clear(): Promise<void>;
  /** Starts filling a copy that replaces this index on commit; searches see the old one until then. */
  rebuild(): Promise<IndexRebuild>;
  size(): Promise<number>;
  /** Throws when the index cannot serve (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
