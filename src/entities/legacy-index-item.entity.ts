import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { LegacyIndex } from './legacy-index.entity';

/** What an item's node is: a web page or an intent of the core group. */
export type IndexItemType = 'WebPage' | 'Intent';

/**
 * A node in an index. Removing it sets `deletedAt`; adding it again brings the same row back.
 * `pointId` names its entry in the item vector index (Qdrant point ids are uuids).
 */
@Entity({ tableName: 'legacy_index_items' })
@Unique({ properties: ['indexId', 'itemId'] })
// Other instances' in-process item indexes follow changes by this timestamp.
@Index({ properties: ['touchedAt'] })
@Index({ properties: ['itemId'] })
// Listing an index's items, newest first.
@Index({ properties: ['indexId', 'createdAt'] })
export class LegacyIndexItem {
  /** Stream-id-like, derived from the index and node ids. */
  @PrimaryKey({ type: 'text' })
  id: string;

  @Unique()
  @Property({ type: 'uuid' })
  pointId: string = randomUUID();

  @ManyToOne(() => LegacyIndex, { mapToPk: true, fieldName: 'index_id', deleteRule: 'cascade' })
  indexId: string;

  /** The node's own id: a web page's stream id or an intent's uuid. */
  @Property({ type: 'text' })
  itemId: string;

  @Property({ type: 'string', length: 32 })
  itemType: IndexItemType;

  @Property({ type: 'text' })
  version: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  deletedAt: Date | null = null;

  /** When its default embedding was last made and put in the vector index; null while waiting. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  indexedAt: Date | null = null;

  /**
   * Internal sync watermark: moves on every write to the row, including ones no reader sees (its
   * index was deleted), so other instances re-read it. `updatedAt` moves only with `version`.
   */
  @Property({ type: 'Date', columnType: 'timestamptz' })
  touchedAt: Date = new Date();
}
