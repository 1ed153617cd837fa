import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Agent } from './agent.entity';
import { User } from './user.entity';

/**
 * The server-side offset of an event stream `consumer` (an agent of the user): every frame up
 * to `position` has been delivered to one of its connections (docs/adr/0053-stream-consumers.md).
 */
@Entity({ tableName: 'event_consumers' })
export class EventConsumer {
  @ManyToOne(() => Agent, { mapToPk: true, primary: true, fieldName: 'agent_id', deleteRule: 'cascade' })
  agentId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @Property({ type: 'bigint' })
  position: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();
}

/**
 * A frame above a consumer's position that one connection took. The primary key makes the
 * claim exclusive, so two connections of one consumer never get the same frame; a claim not
 * yet delivered when its connection ends (or stops heartbeating) is deleted and the frame is
 * claimed again.
 */
@Entity({ tableName: 'event_consumer_claims' })
@Index({ properties: ['agentId', 'connectionId'] })
export class EventConsumerClaim {
  @ManyToOne(() => Agent, { mapToPk: true, primary: true, fieldName: 'agent_id', deleteRule: 'cascade' })
  agentId: string;

  @PrimaryKey({ type: 'bigint', autoincrement: false })
  eventId: string;

  @Property({ type: 'uuid' })
  connectionId: string;

  @Property({ type: 'boolean', default: false })
  delivered: boolean = false;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  claimedAt: Date = new Date();

  /** Renewed while the connection lives; a stale one means its instance died. */
  @Property({ type: 'Date', columnType: 'timestamptz' })
  heartbeatAt: Date = new Date();
}
