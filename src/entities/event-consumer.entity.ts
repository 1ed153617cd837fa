import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Agent } from './agent.entity';
import { User } from './user.entity';

/**
 * The server-side offset of an event stream `consumer` (an agent of the user): every frame up
 * to `position` was sent by one of its connections or returned to be sent again
 * (docs/adr/0053-stream-consumers.md).
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
 * A frame of a consumer and the connection that holds it (docs/adr/0053-stream-consumers.md).
 * The primary key makes a claim exclusive, so two connections of one consumer never get the
 * same frame. `connectionId` set and not `delivered`: that connection is writing the frame.
 * Set and `delivered`: it sent the frame (the OS took the bytes); the row stays as a record
 * until the client's reconnect cursor acknowledges it or the frame is pruned. No connection
 * (and not delivered): returned to the consumer, to be claimed again before anything newer.
 */
@Entity({ tableName: 'event_consumer_claims' })
@Index({ properties: ['agentId', 'connectionId'] })
@Index({
  name: 'event_consumer_claims_open_index',
  expression: 'create index "event_consumer_claims_open_index" on "event_consumer_claims" ("agent_id", "event_id") where not "delivered"',
})
export class EventConsumerClaim {
  @ManyToOne(() => Agent, { mapToPk: true, primary: true, fieldName: 'agent_id', deleteRule: 'cascade' })
  agentId: string;

  @PrimaryKey({ type: 'bigint', autoincrement: false })
  eventId: string;

  @Property({ type: 'uuid', nullable: true })
  connectionId: string | null = null;

  @Property({ type: 'boolean', default: false })
  delivered: boolean = false;

  /** When the holding connection claimed it (clock time): a connection's send order. */
  @Property({ type: 'Date', columnType: 'timestamptz' })
  claimedAt: Date = new Date();

  /** Renewed while the connection lives; a stale one means its instance died. */
  @Property({ type: 'Date', columnType: 'timestamptz' })
  heartbeatAt: Date = new Date();
}
