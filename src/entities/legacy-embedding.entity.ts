import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { LegacyIndex } from './legacy-index.entity';
import { User } from './user.entity';

/**
 * A vector of an item in an index, made by a named model in a category. The natural key
 * (index, item, model, category) is unique among embeddings that are not deleted.
 */
@Entity({ tableName: 'legacy_embeddings' })
@Index({
  name: 'legacy_embeddings_natural_key_unique',
  expression:
    'create unique index "legacy_embeddings_natural_key_unique" on "legacy_embeddings" ("index_id", "item_id", "model_name", "category") where "deleted_at" is null',
})
export class LegacyEmbedding {
  /** Stream-id-like. */
  @PrimaryKey({ type: 'text' })
  id: string;

  @ManyToOne(() => LegacyIndex, { mapToPk: true, fieldName: 'index_id', deleteRule: 'cascade' })
  indexId: string;

  @Property({ type: 'text' })
  itemId: string;

  @Property({ type: 'string', length: 256 })
  modelName: string;

  @Property({ type: 'string', length: 128 })
  category: string;

  /** The transformed text that was embedded; null means the raw document was. */
  @Property({ type: 'text', nullable: true })
  context: string | null = null;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'json' })
  vector: number[];

  @Property({ type: 'integer' })
  dimensions: number;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'controller_id', deleteRule: 'cascade' })
  controllerId: string;

  @Property({ type: 'text' })
  controllerDid: string;

  /** Commit-id-like; a new one on every change. */
  @Property({ type: 'text' })
  version: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  deletedAt: Date | null = null;
}
