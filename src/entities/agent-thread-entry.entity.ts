import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * Every h2a entry id an owner's agent thread holds, whatever its kind. A repeated id is
 * dropped by the primary key (`insert ... on conflict do nothing`), so a negotiator may resend
 * a batch safely.
 */
@Entity({ tableName: 'agent_thread_entries' })
export class AgentThreadEntry {
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'owner_id', deleteRule: 'cascade' })
  ownerId: string;

  @PrimaryKey({ type: 'string', length: 200 })
  entryId: string;

  @Property({ type: 'string', length: 16 })
  kind: 'question' | 'message' | 'expire';

  @Property({ type: 'uuid' })
  intentId: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}
