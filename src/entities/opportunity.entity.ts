import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Intent } from './intent.entity';
import { Network } from './network.entity';
import { User } from './user.entity';

export type OpportunityStatus = 'negotiating' | 'pending' | 'accepted' | 'rejected' | 'expired';

/** Why an opportunity ended without both owners approving it (kept for the card text and the docs). */
export type OpportunityEnding = 'declined' | 'owner_rejected' | 'expired' | 'intent_archived' | 'membership_removed' | 'network_deleted';

/** The text of a card for one seat. */
export interface SeatCardText {
  headline: string;
  mainText: string;
}

/** The card, written once when the opportunity opens (src/domain/opportunities/ports.ts). */
export interface OpportunityCard {
  /** Seat A is the owner of intent A (the opener), seat B the other owner. */
  a: SeatCardText;
  b: SeatCardText;
  /** What the introduction is about: the first word the seeker asks for, lower-cased, or 'general' (docs/negotiation.md, Cards). */
  category: string;
  /** Complementarity of both intents' readings in [0, 1] (pair score, mean of both directions). */
  confidence: number;
  /** seeker: the introduction answers this seat's need; provider: it answers the other's; peer: both. */
  roles: { a: 'seeker' | 'provider' | 'peer'; b: 'seeker' | 'provider' | 'peer' };
  /** Which writer produced the text: the local rules or the configured model. */
  writer: 'local' | 'provider';
}

@Entity({ tableName: 'opportunities' })
// Short ids resolve through this index (src/domain/shared/short-id.ts).
@Index({ name: 'opportunities_short_id_index', expression: 'create index "opportunities_short_id_index" on "opportunities" (left("id"::text, 8))' })
// One opportunity per pair of intents, whichever of the two opened it.
@Index({
  name: 'opportunities_pair_unique',
  expression: 'create unique index "opportunities_pair_unique" on "opportunities" (least("intent_a_id", "intent_b_id"), greatest("intent_a_id", "intent_b_id"))',
})
export class Opportunity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The opener's intent (or the introducer's first); its owner holds seat A and moves first. */
  @Index()
  @ManyToOne(() => Intent, { mapToPk: true, fieldName: 'intent_a_id', deleteRule: 'cascade' })
  intentAId: string;

  @Index()
  @ManyToOne(() => Intent, { mapToPk: true, fieldName: 'intent_b_id', deleteRule: 'cascade' })
  intentBId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_a_id', deleteRule: 'cascade' })
  userAId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_b_id', deleteRule: 'cascade' })
  userBId: string;

  /** The shared network the introduction happens in; null once that network is deleted. */
  @Index()
  @ManyToOne(() => Network, { mapToPk: true, fieldName: 'network_id', deleteRule: 'set null', nullable: true })
  networkId: string | null = null;

  /** A third person who opened it (POST /api/opportunities); null when a seat's owner did. */
  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'introducer_id', deleteRule: 'set null', nullable: true })
  introducerId: string | null = null;

  /** The introducer's reason, read by both seats. */
  @Property({ type: 'text', nullable: true })
  context: string | null = null;

  @Property({ type: 'string', length: 16 })
  status: OpportunityStatus = 'negotiating';

  @Property({ type: 'string', length: 32, nullable: true })
  endedReason: OpportunityEnding | null = null;

  @Property({ type: 'json' })
  card: OpportunityCard;

  /** When the owner of seat A approved (double opt-in). */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true, fieldName: 'approved_a_at' })
  approvedAAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true, fieldName: 'approved_b_at' })
  approvedBAt: Date | null = null;

  /** The direct conversation opened once both owners approved. */
  @Property({ type: 'uuid', nullable: true })
  conversationId: string | null = null;

  /** After this an opportunity that is neither accepted nor rejected expires (OPPORTUNITY_TTL_DAYS). */
  @Index()
  @Property({ type: 'Date', columnType: 'timestamptz' })
  expiresAt: Date;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
