import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The length of the vectors the service's own embedder made under a model name. Only the service
 * writes here; users' model names have their length per index (LegacyIndexEmbeddingModel).
 */
@Entity({ tableName: 'legacy_embedding_models' })
export class LegacyEmbeddingModel {
  @PrimaryKey({ type: 'string', length: 256 })
  modelName: string;

  @Property({ type: 'integer' })
  dimensions: number;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
