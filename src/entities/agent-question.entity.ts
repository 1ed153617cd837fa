import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Agent } from './agent.entity';
import { Intent } from './intent.entity';
import { User } from './user.entity';

export type AgentQuestionStatus = 'waiting' | 'answered' | 'expired';
export type AgentQuestionScope = 'intent' | 'match';

export interface QuestionMatch {
  opportunityId: string;
  counterparty: { id: string; name: string };
}

/**
 * A question a negotiator asked its owner in the agent thread. The id is the one the
 * negotiator gave the entry, unique within the owner's thread.
 */
@Entity({ tableName: 'agent_questions' })
@Index({ properties: ['ownerId', 'intentId', 'status'] })
export class AgentQuestion {
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'owner_id', deleteRule: 'cascade' })
  ownerId: string;

  @PrimaryKey({ type: 'string', length: 200 })
  id: string;

  @Index()
  @ManyToOne(() => Intent, { mapToPk: true, fieldName: 'intent_id', deleteRule: 'cascade' })
  intentId: string;

  @Index()
  @ManyToOne(() => Agent, { mapToPk: true, fieldName: 'agent_id', deleteRule: 'set null', nullable: true })
  agentId: string | null = null;

  @Property({ type: 'text' })
  text: string;

  @Property({ type: 'string', length: 16 })
  scope: AgentQuestionScope = 'intent';

  @Property({ type: 'json' })
  matches: QuestionMatch[] = [];

  @Property({ type: 'string', length: 16 })
  status: AgentQuestionStatus = 'waiting';

  @Property({ type: 'text', nullable: true })
  answer: string | null = null;

  /** The entry's createdAt: when the negotiator asked. */
  @Property({ type: 'Date', columnType: 'timestamptz' })
  askedAt: Date;

  /** The thread message that carries the question. */
  @Property({ type: 'uuid', nullable: true })
  messageId: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  /** When it was answered or expired. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  endedAt: Date | null = null;
}
