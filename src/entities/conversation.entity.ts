import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity';

/** `direct`: a DM between two users; `agent`: a user's personal-agent thread. */
export type ConversationKind = 'direct' | 'agent';

/**
 * A conversation. `pairKey` makes "one DM per pair" and "one agent thread per user" a unique
 * constraint, so opening one is a single `insert ... on conflict` (no read-then-write race).
 * Both users are referenced with cascade: deleting either account removes the conversation.
 */
@Entity({ tableName: 'conversations' })
// Short ids (the first 8 characters of the id) resolve through this index (src/domain/shared/short-id.ts).
@Index({ name: 'conversations_short_id_index', expression: 'create index "conversations_short_id_index" on "conversations" (left("id"::text, 8))' })
export class Conversation {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 16 })
  kind: ConversationKind;

  /** `direct:<lower user id>:<higher user id>` or `agent:<owner id>`. */
  @Unique()
  @Property({ type: 'string', length: 80 })
  pairKey: string;

  /** The lower user id of a DM, or the owner of an agent thread. */
  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_a_id', deleteRule: 'cascade' })
  userAId: string;

  /** The higher user id of a DM; null for an agent thread. */
  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_b_id', deleteRule: 'cascade', nullable: true })
  userBId: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastMessageAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();
}
