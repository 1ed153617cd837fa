import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { NegotiationAction, Outcome } from '../domain/negotiations/negotiation.rules';
import { Intent } from './intent.entity';
import { Opportunity } from './opportunity.entity';
import { User } from './user.entity';

/**
 * The one negotiation of an opportunity. Its seats are the opportunity's two owners; every
 * write takes the opportunity row lock first, so a turn, an approval and an ending never
 * interleave.
 */
@Entity({ tableName: 'negotiations' })
export class Negotiation {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Unique()
  @ManyToOne(() => Opportunity, { mapToPk: true, fieldName: 'opportunity_id', deleteRule: 'cascade' })
  opportunityId: string;

  /** Whose turn it is; null once settled or at the turn limit. */
  @Index()
  @Property({ type: 'uuid', nullable: true })
  awaitingUserId: string | null = null;

  @Property({ type: 'string', length: 16, nullable: true })
  outcome: Outcome | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  settledAt: Date | null = null;

  @Property({ type: 'integer', default: 0 })
  turnCount: number = 0;

  /** Both intents active as last seen, so `negotiation.changed` fires only when that flips. */
  @Property({ type: 'boolean', default: true })
  intentsActive: boolean = true;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** What the hosted negotiator keeps about its own turn (never shown to clients). */
export interface TurnMeta {
  /** The requirement the turn asked the other seat about. */
  asked?: string;
  /** Questions of the other seat this turn answered. */
  answered?: string[];
  /** Terms of the other seat's proposal this turn refused on the owner's word (their topic key). */
  refused?: string;
}

/** One turn; (negotiation, turnIndex) is unique, so a turn can never be written twice. */
@Entity({ tableName: 'negotiation_turns' })
export class NegotiationTurn {
  @ManyToOne(() => Negotiation, { mapToPk: true, primary: true, fieldName: 'negotiation_id', deleteRule: 'cascade' })
  negotiationId: string;

  @PrimaryKey({ type: 'integer', autoincrement: false })
  turnIndex: number;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'seat_user_id', deleteRule: 'cascade' })
  seatUserId: string;

  /** The agent that took the turn (the hosted negotiator or an external agent); null when the owner did. */
  @Property({ type: 'uuid', nullable: true })
  agentId: string | null = null;

  @Property({ type: 'string', length: 16 })
  action: NegotiationAction;

  @Property({ type: 'text' })
  message: string;

  @Property({ type: 'json', nullable: true })
  meta: TurnMeta | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}

/** What a question to the owner is about, so the answer can be used. */
export type OwnerQuestionTopic =
  /** The other seat asked something only the owner can answer; the answer is passed on. */
  | { kind: 'relay'; question: string; keys: string[] }
  /** A requirement is close or unanswered; the owner says whether to go ahead. */
  | { kind: 'waive'; key: string }
  /** The other seat's proposal states terms the rules cannot check; the owner agrees to them or not. */
  | { kind: 'terms'; key: string; terms: string[] };

/**
 * A question the hosted negotiator put to its owner in the agent thread. (negotiation,
 * turnIndex, topicKey) is unique, so a repeated job never asks the same thing twice.
 */
@Entity({ tableName: 'negotiation_questions' })
@Unique({ name: 'negotiation_questions_turn_topic_unique', properties: ['negotiationId', 'turnIndex', 'topicKey'] })
export class NegotiationQuestion {
  /** Also the question's id in the agent thread. */
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Negotiation, { mapToPk: true, fieldName: 'negotiation_id', deleteRule: 'cascade' })
  negotiationId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'owner_id', deleteRule: 'cascade' })
  ownerId: string;

  @ManyToOne(() => Intent, { mapToPk: true, fieldName: 'intent_id', deleteRule: 'cascade' })
  intentId: string;

  /** The turn the negotiator was about to take when it asked. */
  @Property({ type: 'integer' })
  turnIndex: number;

  /** `relay:<hash of the question>`, `waive:<requirement>` or `terms:<hash of the terms>`. */
  @Property({ type: 'string', length: 128 })
  topicKey: string;

  @Property({ type: 'json' })
  topic: OwnerQuestionTopic;

  @Property({ type: 'text' })
  text: string;

  @Property({ type: 'text', nullable: true })
  answer: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  answeredAt: Date | null = null;

  /** Set when the negotiation moved on without the answer and the thread question was expired. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  expiredAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
