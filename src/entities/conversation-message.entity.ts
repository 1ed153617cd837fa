import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Agent } from './agent.entity';
import { Conversation } from './conversation.entity';
import { User } from './user.entity';

/** `user`: written by a person; `agent`: written by a negotiator in the agent thread. */
export type MessageRole = 'user' | 'agent';

export interface MessagePart {
  kind: 'text';
  text: string;
}

/**
 * One message. Messages are ordered by (createdAt, id); createdAt is the database's
 * clock_timestamp(), so messages written in one transaction still differ.
 */
@Entity({ tableName: 'conversation_messages' })
@Index({ properties: ['conversationId', 'createdAt'] })
@Index({ name: 'conversation_messages_intent_index', properties: ['conversationId', 'intentId', 'createdAt'] })
export class ConversationMessage {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Conversation, { mapToPk: true, fieldName: 'conversation_id', deleteRule: 'cascade' })
  conversationId: string;

  /** The writing user (a person's message); deleting the account removes what they wrote. */
  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'sender_user_id', deleteRule: 'cascade', nullable: true })
  senderUserId: string | null = null;

  /** The writing agent (an agent-thread message from a negotiator); kept when the agent is deleted. */
  @Index()
  @ManyToOne(() => Agent, { mapToPk: true, fieldName: 'sender_agent_id', deleteRule: 'set null', nullable: true })
  senderAgentId: string | null = null;

  @Property({ type: 'string', length: 16 })
  role: MessageRole;

  @Property({ type: 'json' })
  parts: MessagePart[];

  @Property({ type: 'json', nullable: true })
  metadata: Record<string, unknown> | null = null;

  /** metadata.intentId, copied into a column so the intentId filter uses an index. */
  @Property({ type: 'uuid', nullable: true })
  intentId: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
