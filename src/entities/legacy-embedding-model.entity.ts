import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** The dimension a model name's vectors have, fixed by its first embedding. */
@Entity({ tableName: 'legacy_embedding_models' })
export class LegacyEmbeddingModel {
  @PrimaryKey({ type: 'string', length: 256 })
  modelName: string;

  @Property({ type: 'integer' })
  dimensions: number;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
