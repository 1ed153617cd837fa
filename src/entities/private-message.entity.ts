import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { PrivateConversation } from './private-conversation.entity';
import { User } from './user.entity';

export type PrivateMessageRole = 'user' | 'assistant';
/** Where the assistant's answer to a user message stands. */
export type ReplyState = 'pending' | 'done' | 'failed';

@Entity({ tableName: 'private_messages' })
@Unique({ properties: ['conversationId', 'seq'] })
@Index({ properties: ['replyState', 'updatedAt'] })
export class PrivateMessage {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => PrivateConversation, { mapToPk: true, fieldName: 'conversation_id', deleteRule: 'cascade' })
  conversationId: string;

  /** Order within the conversation (from the conversation's counter). */
  @Property({ type: 'integer' })
  seq: number;

  /** Who wrote it; null for the assistant (and once the author's account is gone). */
  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'author_id', nullable: true, deleteRule: 'set null' })
  authorId: string | null = null;

  @Property({ type: 'string', length: 16 })
  role: PrivateMessageRole;

  @Property({ type: 'text' })
  content: string;

  /** On the assistant's replies: the user message answered, so deleteAfter knows whose reply it is. */
  @Property({ type: 'uuid', nullable: true })
  replyTo: string | null = null;

  /** Set on user messages: the assistant's answer is pending, done or failed. */
  @Property({ type: 'string', length: 16, nullable: true })
  replyState: ReplyState | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();
}
