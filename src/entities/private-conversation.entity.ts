import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity';

/**
 * A private conversation of the earlier route group: members (DIDs) talking with an assistant
 * grounded on sources (index ids or DIDs). `lastSeq` numbers its messages.
 */
@Entity({ tableName: 'private_conversations' })
export class PrivateConversation {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'creator_id', deleteRule: 'cascade' })
  creatorId: string;

  @Property({ type: 'json' })
  sources: string[] = [];

  /** DIDs, lower-cased; the creator's is always among them. */
  @Property({ type: 'json' })
  members: string[] = [];

  @Property({ type: 'text', nullable: true })
  summary: string | null = null;

  @Property({ type: 'integer', default: 0 })
  lastSeq: number = 0;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();
}
