import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Conversation } from './conversation.entity';
import { User } from './user.entity';

/** A user's place in a conversation: their read mark and whether they hid it (for them only). */
@Entity({ tableName: 'conversation_participants' })
export class ConversationParticipant {
  @ManyToOne(() => Conversation, { mapToPk: true, primary: true, fieldName: 'conversation_id', deleteRule: 'cascade' })
  conversationId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  /** Set by DELETE /api/conversations/:id; cleared by the next message (for every participant). */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  hiddenAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastReadAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  joinedAt: Date = new Date();
}
