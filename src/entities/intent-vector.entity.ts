import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import type { Facets } from '../domain/matching/facets.rules';
import { Intent } from './intent.entity';

export type IntentVectorState = 'ready' | 'pending';

/**
 * An intent's embedding and the facets read from its text. The vector index (in-process or
 * Qdrant) is rebuilt from these rows; `pending` rows wait for the embedding provider.
 */
@Entity({ tableName: 'intent_vectors' })
@Index({ properties: ['state'] })
// Other instances follow changes by this timestamp (IntentIndexer.sync).
@Index({ properties: ['updatedAt'] })
export class IntentVector {
  @ManyToOne(() => Intent, { mapToPk: true, primary: true, fieldName: 'intent_id', deleteRule: 'cascade' })
  intentId: string;

  /** Which embedder made the vector (a change of embedder means re-embedding). */
  @Property({ type: 'string', length: 128 })
  embedder: string;

  /** Float32 little-endian; null while pending. */
  @Property({ type: 'blob', nullable: true })
  vector: Buffer | null = null;

  @Property({ type: 'json' })
  facets: Facets;

  /** SHA-256 of the text the vector and facets were made from. */
  @Property({ type: 'string', length: 64 })
  textHash: string;

  @Property({ type: 'string', length: 16 })
  state: IntentVectorState = 'pending';

  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();
}
