import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { LegacyIndex } from './legacy-index.entity';

/**
 * The length a model name's vectors have in one index, fixed by the first vector a user stored
 * there, so no user's vectors constrain another index (docs/adr/0085-embeddings.md).
 */
@Entity({ tableName: 'legacy_index_embedding_models' })
export class LegacyIndexEmbeddingModel {
  @ManyToOne(() => LegacyIndex, { primary: true, mapToPk: true, fieldName: 'index_id', deleteRule: 'cascade' })
  indexId: string;

  @PrimaryKey({ type: 'string', length: 256 })
  modelName: string;

  @Property({ type: 'integer' })
  dimensions: number;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
