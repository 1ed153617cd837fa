import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * A web page node: a URL with its title and readable text, fetched by the service or given
 * directly. Its id is stream-id-like (src/domain/shared/stream-id.ts) so the earlier route
 * group can index it as an item next to its other nodes.
 */
@Entity({ tableName: 'web_pages' })
export class WebPage {
  @PrimaryKey({ type: 'text' })
  id: string;

  @Property({ type: 'text' })
  url: string;

  @Property({ type: 'text', nullable: true })
  title: string | null = null;

  @Property({ type: 'text' })
  content: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'created_by_id', deleteRule: 'cascade' })
  createdById: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
