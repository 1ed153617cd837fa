import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * One frame of a user's event feed. `eventId` increases per user; it is assigned from
 * `EventCounter` inside the transaction that writes the change (see src/domain/events/event-log.ts).
 */
@Entity({ tableName: 'events' })
@Index({ properties: ['createdAt'] })
export class EventRecord {
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @PrimaryKey({ type: 'bigint', autoincrement: false })
  eventId: string;

  @Property({ type: 'string', length: 64 })
  type: string;

  /** Everything in the frame besides eventId, at and type. */
  @Property({ type: 'json' })
  payload: Record<string, unknown>;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}

@Entity({ tableName: 'event_counters' })
export class EventCounter {
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @Property({ type: 'bigint' })
  lastId: string;
}
